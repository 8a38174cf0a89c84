package io.quotaflow.process.ops;

/** Text placed in HTML or SVG that we serve or write: task, pool and node names come from users. */
public final class Markup {

  private Markup() {}

  /** {@code text} safe as element content and inside a double- or single-quoted attribute. */
  public static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
        .replace("'", "&#39;");
  }
}
