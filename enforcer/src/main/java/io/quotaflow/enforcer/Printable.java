package io.quotaflow.enforcer;

/**
 * A bounded, quoted, escaped rendering of a name taken from a record, for results and logs: a
 * hostile key must not be able to forge log lines or flood a result's detail.
 */
final class Printable {

  private static final int MAX_CHARS = 64;

  private Printable() {}

  static String of(String raw) {
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
