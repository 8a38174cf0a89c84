package io.quotaflow.benchmarks;

import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.JobCpuMonitorConfig;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The synthetic cluster of {@code quotaflow bench cpu}: N nodes × M tasks of one CPU each, every
 * task flapping between busy (a full CPU) and idle for {@code phaseSamples} samples at a time, so
 * the monitor keeps deciding: with the bench's spec a task walks its soft limit down by ×0.7 and
 * back up by ×1.45, one decision every second sample, about 40 % of samples in all. Phases start
 * at a seeded random offset per task, so decisions spread over time as a real cluster's would.
 *
 * <p>Not thread-safe: one feed thread owns it. Cumulative CPU grows by the usage times the wall
 * time that passed between a task's samples, as a cgroup's counter would.
 */
final class CpuWorkload {

  static final double HARD_LIMIT_CPU = 1.0;
  static final double BUSY_CPU = 1.0;
  static final double IDLE_CPU = 0.02;
  static final long MEMORY_BYTES = 256L << 20;

  private final int nodes;
  private final int tasksPerNode;
  private final int phaseSamples;
  private final String[] nodeIds;
  private final String[] taskIds;
  private final String[] keys;
  private final int[] phaseOffset;
  private final long[] samplesSent;
  private final long[] lastTsMs;
  private final long[] usageUsec;
  private long seq;

  CpuWorkload(int nodes, int tasksPerNode, int phaseSamples, long seed) {
    if (nodes < 1 || tasksPerNode < 1 || phaseSamples < 1) {
      throw new IllegalArgumentException("nodes, tasks per node and phase length must be at least 1");
    }
    this.nodes = nodes;
    this.tasksPerNode = tasksPerNode;
    this.phaseSamples = phaseSamples;
    int size = Math.multiplyExact(nodes, tasksPerNode);
    nodeIds = new String[size];
    taskIds = new String[size];
    keys = new String[size];
    phaseOffset = new int[size];
    samplesSent = new long[size];
    lastTsMs = new long[size];
    usageUsec = new long[size];
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < size; i++) {
      nodeIds[i] = String.format(Locale.ROOT, "bench-node-%04d", i / tasksPerNode);
      taskIds[i] = String.format(Locale.ROOT, "task-%04d", i % tasksPerNode);
      keys[i] = TaskKey.keyOf(nodeIds[i], taskIds[i]);
      phaseOffset[i] = random.nextInt(2 * phaseSamples);
      lastTsMs[i] = -1;
    }
  }

  int size() {
    return keys.length;
  }

  /** {@code node/task}, the samples' key. */
  String key(int task) {
    return keys[task];
  }

  boolean busy(int task) {
    return ((samplesSent[task] + phaseOffset[task]) / phaseSamples) % 2 == 0;
  }

  /**
   * Reclaim on, and a monitor that reacts within two samples: every sample is a tick (check period
   * 1 ms, as 1 Hz samples with the default 1 s period are), no smoothing, a decision when both votes
   * of a window of two agree; floor 0.1 CPU.
   */
  TaskSpec spec(int task, long submittedMs) {
    return TaskSpec.newBuilder()
        .setNode(nodeIds[task])
        .setTask(taskIds[task])
        .setOperation("bench")
        .setNcpus(HARD_LIMIT_CPU)
        .setJobCpuMonitor(JobCpuMonitorConfig.newBuilder()
            .setEnableCpuReclaim(true)
            .setCheckPeriodMs(1)
            .setSmoothingFactor(1.0)
            .setVoteWindowSize(2)
            .setVoteDecisionThreshold(1)
            .setDecreaseCoefficient(0.7)
            .setIncreaseCoefficient(1.45)
            .setMinCpuLimit(0.1)
            .build())
        .setSubmittedMs(submittedMs)
        .build();
  }

  /** What each node's collector reports about it: 64 cores, 256 GiB, cgroup v1. */
  List<NodeStatus> nodeStatuses(long tsMs) {
    List<NodeStatus> statuses = new ArrayList<>(nodes);
    for (int task = 0; task < size(); task += tasksPerNode) {
      statuses.add(NodeStatus.newBuilder().setNode(nodeIds[task]).setTsMs(tsMs).setMemoryTotalBytes(256L << 30)
          .setCpus(64).setThreadsPerCore(2).setCgroupVersion(1).build());
    }
    return statuses;
  }

  /** The task's next sample at {@code tsMs}; its counter grows by the usage of this sample's phase since the previous one. */
  CgroupSample next(int task, long tsMs) {
    if (lastTsMs[task] >= 0) {
      long elapsedMs = Math.max(0, tsMs - lastTsMs[task]);
      usageUsec[task] += Math.round((busy(task) ? BUSY_CPU : IDLE_CPU) * elapsedMs * 1000);
    }
    lastTsMs[task] = tsMs;
    samplesSent[task]++;
    return new CgroupSample(nodeIds[task], taskIds[task], tsMs, usageUsec[task], MEMORY_BYTES, MEMORY_BYTES,
        MEMORY_BYTES, 0L, 0L, null, SampleState.RUNNING, seq++);
  }
}
