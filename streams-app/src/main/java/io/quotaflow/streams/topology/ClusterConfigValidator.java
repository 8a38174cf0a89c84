package io.quotaflow.streams.topology;

import io.quotaflow.cgroups.KernelCpuLimits;
import io.quotaflow.schemas.Ids;
import io.quotaflow.schemas.avro.ClusterConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * What is wrong with a {@link ClusterConfig}, if anything. A config with problems is rejected to the
 * DLQ and the last good one stays in force (DESIGN "Safety"), so every rule here guards a value that
 * would otherwise reach a cgroup or an engine.
 */
public final class ClusterConfigValidator {

  /**
   * A FREEZE lease must outlast two sample periods of the collector (1 s by default), so a renewal
   * carried by the node's next samples arrives before the enforcer thaws the task by itself.
   */
  static final long MIN_FREEZE_LEASE_MS = 2_000;

  /**
   * The PBS hook raises the fudge factor for short CFS periods, where a task reaches less of its quota;
   * ten times a task's CPUs is already no limit at all, so more is a typo.
   */
  static final double MAX_CFS_QUOTA_FUDGE_FACTOR = 10;

  /**
   * A zero-CPU task's quota in CPUs: 1 or more stops throttling a single-threaded one (the PBS hook's
   * advice), more lets a multi-threaded one run on leftover CPU. The bound is the kernel's largest
   * CPU count (NR_CPUS with MAXSMP).
   */
  static final double MAX_ZERO_CPUS_QUOTA_FRACTION = 8192;

  private ClusterConfigValidator() {}

  public static List<String> problems(ClusterConfig config) {
    List<String> problems = fieldProblems(config);
    if (config.getPeakReleaseRatio() > config.getPeakThresholdRatio()) {
      problems.add("peak_release_ratio " + config.getPeakReleaseRatio() + " is above peak_threshold_ratio "
          + config.getPeakThresholdRatio() + ": a holder would release its slot while still approaching its peak");
    }
    return problems;
  }

  /**
   * The problems of each field on its own, without the rules between fields: what {@code quotaflow
   * cluster set} can check before it has read the config in force (which the relations depend on).
   */
  public static List<String> fieldProblems(ClusterConfig config) {
    List<String> problems = new ArrayList<>();
    if (!Ids.isValid(config.getCluster())) {
      problems.add("cluster id '" + config.getCluster() + "' does not match " + Ids.PATTERN_TEXT);
    }
    if (config.getTotalCpu() != null) {
      positive(problems, "total_cpu", config.getTotalCpu());
    }
    positive(problems, "pool_capacity_saturation_period_s", config.getPoolCapacitySaturationPeriodS());
    positive(problems, "smooth_period_s", config.getSmoothPeriodS());
    range(problems, "relaxed_share_multiplier_limit", config.getRelaxedShareMultiplierLimit(), 1, 10);
    range(problems, "fair_share_update_period_ms", config.getFairShareUpdatePeriodMs(), 10, 60_000);
    range(problems, "cfs_period_us", config.getCfsPeriodUs(), KernelCpuLimits.MIN_PERIOD_US,
        KernelCpuLimits.MAX_PERIOD_US);
    range(problems, "cfs_quota_fudge_factor", config.getCfsQuotaFudgeFactor(), 1, MAX_CFS_QUOTA_FUDGE_FACTOR);
    range(problems, "zero_cpus_shares_fraction", config.getZeroCpusSharesFraction(), 0, 1);
    range(problems, "zero_cpus_quota_fraction", config.getZeroCpusQuotaFraction(), 0.01, MAX_ZERO_CPUS_QUOTA_FRACTION);
    range(problems, "peak_threshold_ratio", config.getPeakThresholdRatio(), 1, 100);
    range(problems, "peak_release_ratio", config.getPeakReleaseRatio(), 1, 100);
    if (config.getMaxConcurrentPeaks() < 1) {
      problems.add("max_concurrent_peaks must be at least 1, was " + config.getMaxConcurrentPeaks());
    }
    if (config.getMemoryHeadroomBytes() < 0) {
      problems.add("memory_headroom_bytes must not be negative, was " + config.getMemoryHeadroomBytes());
    }
    if (config.getFreezeLeaseMs() < MIN_FREEZE_LEASE_MS) {
      problems.add("freeze_lease_ms must be at least " + MIN_FREEZE_LEASE_MS + " (twice the collector's 1 s sample period),"
          + " was " + config.getFreezeLeaseMs() + ": a shorter lease runs out between renewals and thaws waiting tasks");
    }
    positive(problems, "task_idle_timeout_ms", config.getTaskIdleTimeoutMs());
    positive(problems, "queue_wait_alert_ms", config.getQueueWaitAlertMs());
    return problems;
  }

  private static void positive(List<String> problems, String field, double value) {
    if (!(value > 0) || Double.isInfinite(value)) {
      problems.add(field + " must be a positive finite number, was " + value);
    }
  }

  private static void range(List<String> problems, String field, double value, double min, double max) {
    if (!(value >= min && value <= max)) {
      problems.add(field + " must be in [" + format(min) + ", " + format(max) + "], was " + format(value));
    }
  }

  private static String format(double value) {
    return value == Math.rint(value) && !Double.isInfinite(value) ? Long.toString((long) value) : Double.toString(value);
  }
}
