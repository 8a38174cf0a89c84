package io.quotaflow.schemas;

import java.util.regex.Pattern;

/**
 * Node, task and pool ids. An id names a cgroup directory, so it must be safe as one path element:
 * no '/', no leading dot (so never "." or ".."), at most 128 characters.
 */
public final class Ids {

  public static final String PATTERN_TEXT = "[A-Za-z0-9_:@-][A-Za-z0-9._:@-]{0,127}";
  /** {@link #PATTERN_TEXT} compiled, for tests that hold {@link #isValid} to it. */
  public static final Pattern PATTERN = Pattern.compile(PATTERN_TEXT);
  private static final int MAX_LENGTH = 128;

  private Ids() {}

  /**
   * Whether {@code id} matches {@link #PATTERN_TEXT}. Checked by hand rather than by the regex: the
   * streams app checks two ids of every sample, and the regex was ~5 % of its CPU.
   */
  public static boolean isValid(String id) {
    if (id == null || id.isEmpty() || id.length() > MAX_LENGTH || id.charAt(0) == '.') {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      if (!isIdChar(id.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isIdChar(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
        || c == '.' || c == '_' || c == ':' || c == '@' || c == '-';
  }

  /** Returns {@code id} if valid, else throws naming what it is and why. */
  public static String requireValid(String what, String id) {
    if (!isValid(id)) {
      throw new InvalidIdException(what, id);
    }
    return id;
  }

  /** An id that does not match {@link #PATTERN_TEXT}. */
  public static final class InvalidIdException extends IllegalArgumentException {
    private final String id;

    InvalidIdException(String what, String id) {
      super(describe(what, id));
      this.id = id;
    }

    public String id() {
      return id;
    }

    private static String describe(String what, String id) {
      if (id == null) {
        return what + " id is missing";
      }
      String shown = id.length() > 40 ? id.substring(0, 40) + "…(" + id.length() + " chars)" : id;
      String why;
      if (id.isEmpty()) {
        why = "it is empty";
      } else if (id.length() > 128) {
        why = "it is longer than 128 characters";
      } else if (id.charAt(0) == '.') {
        why = "it starts with a dot";
      } else {
        why = "it has a character outside [A-Za-z0-9._:@-]";
      }
      return "invalid " + what + " id '" + shown + "': " + why + " (ids match " + PATTERN_TEXT + ")";
    }
  }
}
