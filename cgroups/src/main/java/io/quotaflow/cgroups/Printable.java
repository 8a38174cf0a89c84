package io.quotaflow.cgroups;

/**
 * A bounded, quoted, escaped rendering of an untrusted name (a directory name, a record key), for
 * messages, results and logs: a hostile name must not be able to forge log lines or flood a
 * message. The one copy of this routine: the enforcer uses it for the keys it reads.
 */
public final class Printable {

  private static final int MAX_CHARS = 64;

  private Printable() {}

  public static String of(String raw) {
    if (raw == null) {
      return "null";
    }
    StringBuilder out = new StringBuilder("\"");
    int shown = Math.min(raw.length(), MAX_CHARS);
    for (int i = 0; i < shown; i++) {
      char c = raw.charAt(i);
      if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
        out.append(c);
      } else {
        out.append(String.format("\\u%04x", (int) c));
      }
    }
    out.append('"');
    if (raw.length() > shown) {
      out.append("... (").append(raw.length()).append(" chars)");
    }
    return out.toString();
  }
}
