package io.quotaflow.cgroups;

import java.util.regex.Pattern;

/**
 * The name of a task's cgroup directory under the configured parent.
 *
 * <p>The pattern admits exactly one path component and forbids a leading dot, so {@code .},
 * {@code ..} and hidden names can never be formed: resolving a valid id against the parent always
 * names a direct child of it.
 */
public record TaskId(String value) implements Comparable<TaskId> {

  /** DESIGN "Safety": the only names Quotaflow treats as task groups. */
  public static final Pattern PATTERN = Pattern.compile("[A-Za-z0-9_:@-][A-Za-z0-9._:@-]{0,127}");

  public TaskId {
    if (!isValid(value)) {
      throw new IllegalArgumentException("not a valid task id (must match " + PATTERN.pattern()
          + "): " + Printable.of(value));
    }
  }

  public static TaskId of(String value) {
    return new TaskId(value);
  }

  public static boolean isValid(String value) {
    return value != null && PATTERN.matcher(value).matches();
  }

  @Override
  public int compareTo(TaskId other) {
    return value.compareTo(other.value);
  }

  @Override
  public String toString() {
    return value;
  }
}
