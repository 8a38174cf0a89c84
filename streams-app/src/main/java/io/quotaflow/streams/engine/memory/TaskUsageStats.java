package io.quotaflow.streams.engine.memory;

/**
 * Running totals of one task's usage, a value: {@link #plus} returns the next one.
 *
 * @param operation the task's operation when the totals were last updated
 */
public record TaskUsageStats(String operation, long samples, long sumBytes, long maxBytes, long lastSeenMs) {

  static TaskUsageStats first(String operation, long usageBytes, long tsMs) {
    return new TaskUsageStats(operation, 1, usageBytes, usageBytes, tsMs);
  }

  TaskUsageStats plus(String newOperation, long usageBytes, long tsMs) {
    return new TaskUsageStats(
        newOperation, samples + 1, sumBytes + usageBytes, Math.max(maxBytes, usageBytes), tsMs);
  }

  long meanBytes() {
    return Math.round((double) sumBytes / samples);
  }
}
