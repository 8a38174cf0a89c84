package io.quotaflow.streams.engine.memory;

import java.util.Objects;

/**
 * The memory part of one cgroup sample of a task on this gate's node.
 *
 * @param memoryAnonBytes anonymous memory without page cache; null when the collector could not read it
 */
public record MemorySample(String task, long tsMs, long memoryBytes, Long memoryAnonBytes, CgroupState state) {

  public MemorySample {
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(state, "state");
  }

  /** A running task's sample with anonymous memory known. */
  public static MemorySample running(String task, long tsMs, long memoryAnonBytes) {
    return new MemorySample(task, tsMs, memoryAnonBytes, memoryAnonBytes, CgroupState.RUNNING);
  }

  /** The last sample of a removed cgroup. */
  public static MemorySample gone(String task, long tsMs) {
    return new MemorySample(task, tsMs, 0, null, CgroupState.GONE);
  }

  /**
   * The usage the gate compares with a task's normal: anonymous memory when known, because page cache is
   * reclaimable and a task reading a large file is not at its peak; else the total.
   */
  public long usageBytes() {
    return memoryAnonBytes != null ? memoryAnonBytes : memoryBytes;
  }
}
