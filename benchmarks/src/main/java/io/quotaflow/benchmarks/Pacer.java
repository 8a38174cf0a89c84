package io.quotaflow.benchmarks;

/**
 * How many records a feed at {@code perSecond} should have sent after {@code elapsedNanos}: a
 * fixed schedule from the start, so a stall is made up for rather than lost, and the rate over any
 * long window is the target.
 */
record Pacer(double perSecond) {

  Pacer {
    if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
      throw new IllegalArgumentException("rate must be a positive number of records per second, got " + perSecond);
    }
  }

  long dueBy(long elapsedNanos) {
    return (long) (Math.max(0, elapsedNanos) * perSecond / 1e9);
  }
}
