package io.quotaflow.schemas;

import java.util.regex.Pattern;

/**
 * Node, task and pool ids. An id names a cgroup directory, so it must be safe as one path element:
 * no '/', no leading dot (so never "." or ".."), at most 128 characters.
 */
public final class Ids {

  public static final String PATTERN_TEXT = "[A-Za-z0-9_:@-][A-Za-z0-9._:@-]{0,127}";
  private static final Pattern PATTERN = Pattern.compile(PATTERN_TEXT);

  private Ids() {}

  public static boolean isValid(String id) {
    return id != null && PATTERN.matcher(id).matches();
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
