package io.quotaflow.enforcer;

import java.time.Duration;

/**
 * When the memory reflex reads next, at {@code hz} readings a second on the enforcer's own thread:
 * how long a Kafka poll may wait, and whether a reading is due. Pure: time is an argument
 * ({@link System#nanoTime()}). A reading that comes late (a long freeze, a slow write) is not
 * caught up with a burst: the next one is a whole period after it.
 */
final class ReflexClock {

  private final long periodNanos;
  private long nextAtNanos;

  /** @param hz readings a second; 0: never due */
  ReflexClock(int hz, long nowNanos) {
    this.periodNanos = hz == 0 ? 0 : 1_000_000_000L / hz;
    this.nextAtNanos = nowNanos + periodNanos;
  }

  /** At most {@code longest}, and no longer than until the next reading. */
  Duration waitBefore(Duration longest, long nowNanos) {
    if (periodNanos == 0) {
      return longest;
    }
    long untilNext = Math.max(0, nextAtNanos - nowNanos);
    return untilNext < longest.toNanos() ? Duration.ofNanos(untilNext) : longest;
  }

  /** Whether a reading is due now; if so, the next one is scheduled. */
  boolean due(long nowNanos) {
    if (periodNanos == 0 || nowNanos - nextAtNanos < 0) {
      return false;
    }
    nextAtNanos += periodNanos;
    if (nextAtNanos - nowNanos <= 0) {
      nextAtNanos = nowNanos + periodNanos; // late: no burst to catch up
    }
    return true;
  }
}
