package io.quotaflow.cli;

import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.JobCpuMonitorConfig;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.TaskSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The synthetic cluster {@code quotaflow bench replay} records: tasks of one CPU spread evenly over
 * nodes, a third idle, a third busy, a third alternating every 20 s (from a seeded offset), so the
 * monitor walks limits down, holds and walks them back up. Every task declares a normal and a peak
 * memory; one task in four climbs past its normal for 10 s out of every 30, and the node's gate
 * (COUNT, one peak at a time) freezes the ones that overlap. CPU counters grow by the usage times a
 * second, with ±5 % jitter, as a cgroup's would between 1 Hz samples. Not thread-safe.
 */
final class ReplayWorkload {

  static final double NCPUS = 1.0;
  static final double MIN_CPU_LIMIT = 0.1;
  static final long NORMAL_BYTES = 256L << 20;
  static final long PEAK_BYTES = 384L << 20;
  /** Above {@link #NORMAL_BYTES} × the default peak threshold ratio (1.1): the gate sees a peak coming. */
  private static final long PEAKING_ANON_BYTES = 320L << 20;
  private static final long STEADY_ANON_BYTES = 200L << 20;
  private static final long PAGE_CACHE_BYTES = 64L << 20;
  private static final double IDLE_CPU = 0.05;
  private static final double BUSY_CPU = 0.95;
  private static final double ALTERNATING_LOW_CPU = 0.1;
  private static final double ALTERNATING_HIGH_CPU = 0.9;
  private static final int ALTERNATING_PHASE_S = 20;
  private static final int PEAK_CYCLE_S = 30;
  private static final int PEAK_LENGTH_S = 10;

  private final String[] nodeIds;
  private final String[] taskIds;
  private final int[] offsetS;
  private final long[] usageUsec;
  private final SplittableRandom random;

  ReplayWorkload(int tasks, int nodes, long seed) {
    if (tasks < 1 || nodes < 1 || nodes > tasks) {
      throw new IllegalArgumentException("at least one task and one node, and no more nodes than tasks");
    }
    nodeIds = new String[tasks];
    taskIds = new String[tasks];
    offsetS = new int[tasks];
    usageUsec = new long[tasks];
    random = new SplittableRandom(seed);
    for (int t = 0; t < tasks; t++) {
      nodeIds[t] = String.format(Locale.ROOT, "bench-node-%04d", (int) ((long) t * nodes / tasks));
      taskIds[t] = String.format(Locale.ROOT, "task-%05d", t);
      offsetS[t] = random.nextInt(2 * ALTERNATING_PHASE_S);
    }
  }

  int size() {
    return taskIds.length;
  }

  String key(int task) {
    return TaskKey.keyOf(nodeIds[task], taskIds[task]);
  }

  /** Cluster CPU well above what all tasks can use, so no pool is ever capped (a cap would make replay approximate). */
  ClusterConfig cluster() {
    return ClusterConfig.newBuilder().setCluster("main").setTotalCpu(10 * NCPUS * size()).build();
  }

  List<NodeStatus> nodeStatuses(long tsMs) {
    List<NodeStatus> statuses = new ArrayList<>();
    for (int t = 0; t < size(); t++) {
      if (t == 0 || !nodeIds[t].equals(nodeIds[t - 1])) {
        statuses.add(NodeStatus.newBuilder().setNode(nodeIds[t]).setTsMs(tsMs).setMemoryTotalBytes(256L << 30)
            .setCpus(64).setThreadsPerCore(2).setCgroupVersion(2).build());
      }
    }
    return statuses;
  }

  /**
   * Reclaim on with the monitor's defaults (a check a second, as the 1 Hz samples) but a floor of 0.1 CPU: the default floor,
   * 1 CPU, is a one-CPU task's hard limit, and its monitor would never move. Declared memory normal and peak.
   */
  TaskSpec spec(int task, long submittedMs) {
    return TaskSpec.newBuilder().setNode(nodeIds[task]).setTask(taskIds[task]).setOperation("bench-replay")
        .setNcpus(NCPUS).setMemoryNormalBytes(NORMAL_BYTES).setMemoryPeakBytes(PEAK_BYTES)
        .setJobCpuMonitor(JobCpuMonitorConfig.newBuilder().setEnableCpuReclaim(true).setMinCpuLimit(MIN_CPU_LIMIT).build())
        .setSubmittedMs(submittedMs).build();
  }

  /** The task's sample for second {@code second} of the run, stamped {@code tsMs}. */
  CgroupSample sample(int task, int second, long tsMs) {
    usageUsec[task] += Math.round(cpu(task, second) * 1_000_000 * (0.95 + 0.1 * random.nextDouble()));
    long anon = peaking(task, second) ? PEAKING_ANON_BYTES : STEADY_ANON_BYTES;
    return CgroupSample.newBuilder().setNode(nodeIds[task]).setTask(taskIds[task]).setTsMs(tsMs)
        .setCpuUsageUsec(usageUsec[task]).setMemoryBytes(anon + PAGE_CACHE_BYTES).setMemoryAnonBytes(anon)
        .setSeq(second).build();
  }

  private double cpu(int task, int second) {
    return switch (task % 3) {
      case 0 -> IDLE_CPU;
      case 1 -> BUSY_CPU * NCPUS;
      default -> ((second + offsetS[task]) / ALTERNATING_PHASE_S) % 2 == 0 ? ALTERNATING_LOW_CPU : ALTERNATING_HIGH_CPU;
    };
  }

  private boolean peaking(int task, int second) {
    return task % 4 == 1 && (second + offsetS[task]) % PEAK_CYCLE_S < PEAK_LENGTH_S;
  }
}
