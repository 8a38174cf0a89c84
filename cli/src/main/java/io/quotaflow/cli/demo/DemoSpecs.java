package io.quotaflow.cli.demo;

import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.Enforcement;
import io.quotaflow.schemas.avro.GuaranteeType;
import io.quotaflow.schemas.avro.JobCpuMonitorConfig;
import io.quotaflow.schemas.avro.PeakGatingMode;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.TaskSpec;
import java.util.List;

/**
 * The records the demo publishes as its job system: one {@link TaskSpec} per demo task, its two
 * pools, and the cluster config.
 */
public final class DemoSpecs {

  public static final String CLUSTER = "demo";
  /** The bursty task's pool: it saves volume while the task idles and spends it on the task's burst. */
  public static final String BURST_POOL = "burst";
  /** Every other task's pool: a steady flow, shared by the relaxed rules, and the rest by weight. */
  public static final String RELAXED_POOL = "relaxed";
  /**
   * The cluster's CPU for pool accounting, below what the tasks ask for (the busy task alone reports
   * a core, the bursty one another while it bursts), so the pools' fair shares cap their tasks.
   */
  static final double TOTAL_CPU = 1.5;
  /** S: a volume of {@code burst × S} cpu·s buys the burst pool its whole burst. */
  static final long SMOOTH_PERIOD_S = 10;
  /** K: a pool's volume stops growing at flow × K cpu·s, so the burst pool's fills within the demo. */
  static final long POOL_CAPACITY_SATURATION_PERIOD_S = 60;
  /** The operation of the CPU tasks. */
  static final String OPERATION = "demo";
  /** The stepping allocators' own operation, so what is learned of one kind of task is never used for the other. */
  static final String PEAKS_OPERATION = "demo-peaks";

  private DemoSpecs() {}

  /**
   * Reclaim on, with a monitor quicker than YTsaurus's defaults so the idle task visibly walks
   * down within a minute: usage smoothed with a = 0.5 (a sleeping task's ratio falls under 0.6
   * at the second measured tick), a decision once 3 of 3 votes agree, and steps of x0.8 (not
   * x0.97) down to a floor of 0.1 cores. A task burning its full core keeps voting +1, so its
   * soft limit stays at the hard limit.
   */
  public static JobCpuMonitorConfig monitor() {
    return JobCpuMonitorConfig.newBuilder()
        .setEnableCpuReclaim(true)
        .setCheckPeriodMs(1000)
        .setSmoothingFactor(0.5)
        .setVoteWindowSize(3)
        .setVoteDecisionThreshold(2)
        .setDecreaseCoefficient(0.8)
        .setMinCpuLimit(0.1)
        .build();
  }

  /**
   * The task's spec; a stepping allocator's declares its schedule's normal and peak, so the peak gate
   * judges it from its first sample (the CPU tasks declare none and are never paused).
   */
  public static TaskSpec spec(String node, DemoTask task, long submittedMs) {
    TaskSpec.Builder spec = TaskSpec.newBuilder()
        .setNode(node)
        .setTask(task.name())
        .setOperation(task.memory() == null ? OPERATION : PEAKS_OPERATION)
        .setPool(task.pool())
        .setNcpus(task.ncpus())
        .setJobCpuMonitor(monitor())
        .setSubmittedMs(submittedMs);
    if (task.memory() != null) {
      spec.setMemoryNormalBytes(task.memory().normalMb() << 20).setMemoryPeakBytes(task.memory().peakMb() << 20);
    }
    return spec.build();
  }

  /**
   * The schema defaults with {@code enforcement} as given (the kill switch: {@code DRY_RUN} for
   * {@code --dry-run}), published so that {@code quotaflow cluster show} shows what is in force. Peak
   * gating is written out although these are the defaults, as the demo's story depends on them: COUNT
   * with one slot, a task approaching its peak above 1.1 × normal and releasing at 1.05 × normal. The
   * pools get {@link #TOTAL_CPU} and volumes that fill and drain in a minute instead of a day.
   */
  public static ClusterConfig cluster(Enforcement enforcement) {
    return ClusterConfig.newBuilder().setCluster(CLUSTER).setEnforcement(enforcement)
        .setPeakGatingMode(PeakGatingMode.COUNT).setMaxConcurrentPeaks(1)
        .setPeakThresholdRatio(1.1).setPeakReleaseRatio(1.05)
        .setTotalCpu(TOTAL_CPU).setSmoothPeriodS(SMOOTH_PERIOD_S)
        .setPoolCapacitySaturationPeriodS(POOL_CAPACITY_SATURATION_PERIOD_S)
        .build();
  }

  /**
   * A burst pool whose flow is above what its task reports while idle, so its volume grows then, and
   * whose burst is the task's whole core; and a relaxed pool with a smaller flow and the larger weight,
   * which takes most of what the volumes leave.
   */
  public static List<PoolConfig> pools() {
    return List.of(
        PoolConfig.newBuilder().setPool(BURST_POOL).setGuaranteeType(GuaranteeType.BURST)
            .setResourceFlowCpu(BURST_FLOW_CPU).setBurstGuaranteeCpu(1.0).build(),
        PoolConfig.newBuilder().setPool(RELAXED_POOL).setGuaranteeType(GuaranteeType.RELAXED)
            .setResourceFlowCpu(RELAXED_FLOW_CPU).setWeight(RELAXED_WEIGHT).build());
  }

  static final double BURST_FLOW_CPU = 0.5;
  static final double RELAXED_FLOW_CPU = 0.3;
  static final double RELAXED_WEIGHT = 3.0;
}
