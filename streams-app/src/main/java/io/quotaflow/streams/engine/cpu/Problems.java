package io.quotaflow.streams.engine.cpu;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects validation problems for one group of fields. Range checks are written as
 * {@code !(lo <= v && v <= hi)} so that NaN fails every one of them.
 */
final class Problems {

  private final String prefix;
  private final List<String> problems = new ArrayList<>();

  Problems(String prefix) {
    this.prefix = prefix;
  }

  /** Inclusive range, as YTsaurus's {@code InRange}. */
  Problems inRange(String field, double value, double lo, double hi) {
    if (!(lo <= value && value <= hi)) {
      add(field, "must be in [" + fmt(lo) + ", " + fmt(hi) + "]", value);
    }
    return this;
  }

  Problems inRange(String field, long value, long lo, long hi) {
    if (value < lo || value > hi) {
      add(field, "must be in [" + lo + ", " + hi + "]", value);
    }
    return this;
  }

  /** Strict lower bound, as YTsaurus's {@code GreaterThan}. */
  Problems greaterThan(String field, long value, long bound) {
    if (value <= bound) {
      add(field, "must be > " + bound, value);
    }
    return this;
  }

  Problems greaterThan(String field, double value, double bound) {
    if (!(value > bound && Double.isFinite(value))) {
      add(field, "must be finite and > " + fmt(bound), value);
    }
    return this;
  }

  Problems atLeast(String field, long value, long bound) {
    if (value < bound) {
      add(field, "must be >= " + bound, value);
    }
    return this;
  }

  Problems atLeast(String field, double value, double bound) {
    if (!(value >= bound && Double.isFinite(value))) {
      add(field, "must be finite and >= " + fmt(bound), value);
    }
    return this;
  }

  void throwIfAny() {
    if (!problems.isEmpty()) {
      throw new InvalidSettingsException(problems);
    }
  }

  private void add(String field, String rule, Object value) {
    problems.add(prefix + field + " " + rule + ", was " + value);
  }

  /** Bounds print as the user writes them: 1 rather than 1.0. */
  private static String fmt(double bound) {
    return bound == Math.rint(bound) && Math.abs(bound) < 1e15
        ? Long.toString((long) bound)
        : Double.toString(bound);
  }
}
