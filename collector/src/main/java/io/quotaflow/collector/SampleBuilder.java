package io.quotaflow.collector;

import io.quotaflow.cgroups.CgroupStats;
import io.quotaflow.cgroups.FreezerState;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.schemas.Ids;
import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.SampleState;

/**
 * Maps one reading of a task's cgroup to the {@code CgroupSample} contract. Pure: the time and
 * the sequence number come in with the call, so it is tested without Kafka, cgroups or a clock.
 */
public final class SampleBuilder {

  private final String node;

  public SampleBuilder(String node) {
    this.node = Ids.requireValid("node", node);
  }

  public String node() {
    return node;
  }

  /** The {@code node/task} key every per-task topic uses. */
  public String keyOf(TaskId task) {
    return TaskKey.keyOf(node, task.value());
  }

  /** A sample of a live group: RUNNING, or FROZEN once the freezer reports frozen. */
  public CgroupSample running(TaskId task, long tsMs, CgroupStats stats, long seq) {
    return sample(task, tsMs, stats, stateOf(stats.freezer()), seq);
  }

  /**
   * The last sample of a removed group. It repeats the counters last read, so a consumer taking a
   * rate over it sees no new usage rather than a counter dropping to zero; a group that vanished
   * before its first read has nothing to repeat and reports zeros.
   */
  public CgroupSample gone(TaskId task, long tsMs, CgroupStats last, long seq) {
    if (last == null) {
      return new CgroupSample(node, task.value(), tsMs, 0L, 0L, null, null, 0L, null, null,
          SampleState.GONE, seq);
    }
    return sample(task, tsMs, last, SampleState.GONE, seq);
  }

  private CgroupSample sample(TaskId task, long tsMs, CgroupStats stats, SampleState state, long seq) {
    return new CgroupSample(
        node,
        task.value(),
        tsMs,
        stats.cpuUsageUsec(),
        // memory_bytes is not nullable in the contract: a node without a memory controller (the v2
        // tree here) reports 0, and memory_anon_bytes stays null to say nothing was read.
        orZero(stats.memoryBytes()),
        stats.memoryAnonBytes(),
        stats.memoryPeakBytes(),
        orZero(stats.nrThrottled()),
        stats.throttledUsec(),
        stats.cpuQuotaCores(),
        state,
        seq);
  }

  /** FREEZING is not frozen yet: the task may still run, so it counts as RUNNING. */
  static SampleState stateOf(FreezerState freezer) {
    return freezer == FreezerState.FROZEN ? SampleState.FROZEN : SampleState.RUNNING;
  }

  private static long orZero(Long value) {
    return value == null ? 0L : value;
  }
}
