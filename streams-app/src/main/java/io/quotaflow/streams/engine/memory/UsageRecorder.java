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

  /** Continues from {@link #snapshot()}. */
  public static UsageRecorder restore(Map<String, TaskUsageStats> snapshot) {
    UsageRecorder recorder = new UsageRecorder();
    recorder.running.putAll(snapshot);
    return recorder;
  }

  public Map<String, TaskUsageStats> snapshot() {
    return Map.copyOf(running);
  }

  /**
   * Records one sample of a task whose spec names {@code operation} (empty or null when unknown).
   *
   * @return the finished task's usage on its GONE sample, when it belongs to an operation and ran at all
   */
  public Optional<FinishedTaskUsage> record(MemorySample sample, String operation) {
    String op = operation == null ? "" : operation;
    switch (sample.state()) {
      case GONE: {
        TaskUsageStats stats = running.remove(sample.task());
        if (stats == null || stats.operation().isEmpty() || stats.meanBytes() <= 0) {
          return Optional.empty();
        }
        return Optional.of(new FinishedTaskUsage(stats.operation(), stats.meanBytes(), stats.maxBytes()));
      }
      case FROZEN:
        // A frozen task's memory is wherever the freeze caught it; counting it would teach the profile the gate's
        // own doing rather than the task's behaviour.
        return Optional.empty();
      default:
        running.merge(
            sample.task(),
            TaskUsageStats.first(op, sample.usageBytes(), sample.tsMs()),
            (old, fresh) -> old.plus(op, sample.usageBytes(), sample.tsMs()));
        return Optional.empty();
    }
  }

  /** Drops tasks silent for {@code idleMs}: a task whose GONE never came is no finished run to learn from. */
  public List<String> expireIdle(long nowMs, long idleMs) {
    List<String> dropped = new ArrayList<>();
    Iterator<Map.Entry<String, TaskUsageStats>> it = running.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<String, TaskUsageStats> e = it.next();
      if (nowMs - e.getValue().lastSeenMs() >= idleMs) {
        dropped.add(e.getKey());
        it.remove();
      }
    }
    return dropped;
  }
}
