package io.quotaflow.streams.engine.memory;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Follows each task's usage on a node from its samples and, when the task is GONE, hands back what it used so its
 * operation's profile can learn from it.
 */
public final class UsageRecorder {

  private final TreeMap<String, TaskUsageStats> running = new TreeMap<>();

  public UsageRecorder() {}

  /**
   * Records one sample of a task whose spec names {@code operation} (empty or null when unknown).
   *
   * @return the finished task's usage on its GONE sample, when it belongs to an operation and ran at all
   */
  public Optional<FinishedTaskUsage> record(MemorySample sample, String operation) {
    TaskStep step = next(running.get(sample.task()), sample, operation);
    if (step.totals() == null) {
      running.remove(sample.task());
    } else {
      running.put(sample.task(), step.totals());
    }
    return step.finished();
  }

  /**
   * One task on its own: what {@link #expireIdle} at the sample's time and then {@link #record} do to a recorder
   * holding only this task's {@code totals} (null when it holds none). For a caller that keeps each task's totals
   * itself and would otherwise build a recorder per sample.
   */
  public static TaskStep step(TaskUsageStats totals, MemorySample sample, String operation, long idleMs) {
    boolean idle = totals != null && isIdle(totals, sample.tsMs(), idleMs);
    return next(idle ? null : totals, sample, operation);
  }

  /**
   * A task's totals after a sample.
   *
   * @param totals   what to keep for the task, null for nothing
   * @param finished the finished task's usage on its GONE sample, when it belongs to an operation and ran at all
   */
  public record TaskStep(TaskUsageStats totals, Optional<FinishedTaskUsage> finished) {}

  private static TaskStep next(TaskUsageStats totals, MemorySample sample, String operation) {
    String op = operation == null ? "" : operation;
    switch (sample.state()) {
      case GONE:
        if (totals == null || totals.operation().isEmpty() || totals.meanBytes() <= 0) {
          return new TaskStep(null, Optional.empty());
        }
        return new TaskStep(null,
            Optional.of(new FinishedTaskUsage(totals.operation(), totals.meanBytes(), totals.maxBytes())));
      case FROZEN:
        // A frozen task's memory is wherever the freeze caught it; counting it would teach the profile the gate's
        // own doing rather than the task's behaviour.
        return new TaskStep(totals, Optional.empty());
      default:
        return new TaskStep(totals == null
            ? TaskUsageStats.first(op, sample.usageBytes(), sample.tsMs())
            : totals.plus(op, sample.usageBytes(), sample.tsMs()), Optional.empty());
    }
  }

  private static boolean isIdle(TaskUsageStats totals, long nowMs, long idleMs) {
    return nowMs - totals.lastSeenMs() >= idleMs;
  }

  /** Drops tasks silent for {@code idleMs}: a task whose GONE never came is no finished run to learn from. */
  public List<String> expireIdle(long nowMs, long idleMs) {
    List<String> dropped = new ArrayList<>();
    Iterator<Map.Entry<String, TaskUsageStats>> it = running.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<String, TaskUsageStats> e = it.next();
      if (isIdle(e.getValue(), nowMs, idleMs)) {
        dropped.add(e.getKey());
        it.remove();
      }
    }
    return dropped;
  }
}
