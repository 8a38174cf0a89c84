package io.quotaflow.cgroups;

import java.util.Locale;

/** The {@code --layout} choice: a fixed version, or detection from the tree under the root. */
public enum CgroupLayout {
  V1,
  V2,
  AUTO;

  /** Parses {@code v1}, {@code v2} or {@code auto}, case-insensitively. */
  public static CgroupLayout parse(String text) {
    try {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new IllegalArgumentException("cgroup layout must be v1, v2 or auto, not: " + text);
    }
  }
}
