package io.quotaflow.cgroups;

/**
 * One reading of a task group's counters, in the units of {@code CgroupSample}.
 *
 * <p>Boxed fields are null where the kernel does not provide the value on this node (no memory
 * controller on a v2 tree, no {@code memory.peak} on an older kernel, no cpu controller, no
 * freezer): absent is not an error.
 *
 * @param cpuUsageUsec cumulative user+system CPU (v1 {@code cpuacct.usage} / 1000, v2
 *     {@code cpu.stat usage_usec})
 * @param nrThrottled {@code cpu.stat nr_throttled}
 * @param throttledUsec v1 {@code throttled_time} / 1000, v2 {@code throttled_usec}
 * @param memoryBytes v1 {@code memory.usage_in_bytes}, v2 {@code memory.current}
 * @param memoryAnonBytes anonymous memory without page cache: v1 {@code memory.stat total_rss},
 *     v2 {@code memory.stat anon}
 * @param memoryPeakBytes v1 {@code memory.max_usage_in_bytes}, v2 {@code memory.peak}
 * @param cpuQuotaUs the quota in force, {@link CgroupCpuWrite#NO_QUOTA} for none
 * @param cpuPeriodUs the CFS period in force; on v1 read only when there is a quota (it matters
 *     only for {@link #cpuQuotaCores()}), null otherwise
 */
public record CgroupStats(
    long cpuUsageUsec,
    Long nrThrottled,
    Long throttledUsec,
    Long memoryBytes,
    Long memoryAnonBytes,
    Long memoryPeakBytes,
    Long cpuQuotaUs,
    Long cpuPeriodUs,
    FreezerState freezer) {

  /** The sample's {@code cpu_quota_cores}: null when there is no quota or it cannot be read. */
  public Double cpuQuotaCores() {
    if (cpuQuotaUs == null || cpuPeriodUs == null || cpuQuotaUs < 0 || cpuPeriodUs <= 0) {
      return null;
    }
    return (double) cpuQuotaUs / cpuPeriodUs;
  }
}
