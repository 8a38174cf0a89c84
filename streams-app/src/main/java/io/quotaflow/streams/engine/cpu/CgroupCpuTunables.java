package io.quotaflow.streams.engine.cpu;

import io.quotaflow.cgroups.KernelCpuLimits;

/**
 * The cluster settings that shape a task's {@link CgroupCpuTarget} (the OpenPBS cgroup hook's cpu
 * tunables, carried in ClusterConfig). PBS validates none of them; the ranges here are what the
 * kernel accepts (CFS period 1 ms to 1 s) or what keeps the formulas meaningful.
 *
 * @param cfsPeriodUs            CFS period written with every quota, usec, within the kernel's bounds
 * @param cfsQuotaFudgeFactor    quota = period x limit x this, so a task at its limit is not
 *                               throttled by accounting granularity; finite, &gt; 0
 * @param enforcePerPeriodQuota  write a quota from each task's hard limit; otherwise only
 *                               zero-CPU tasks get one
 * @param zeroCpusSharesFraction zero-CPU tasks get max(2, int(1000 x this)) shares; finite, &gt;= 0
 * @param zeroCpusQuotaFraction  zero-CPU tasks get a quota of this many CPU threads; finite, &gt;= 0
 * @param ncpusAreCores          task ncpus count physical cores, not hardware threads
 * @param useHyperthreads        with ncpusAreCores, quotas are multiplied by threads per core
 */
public record CgroupCpuTunables(
    long cfsPeriodUs,
    double cfsQuotaFudgeFactor,
    boolean enforcePerPeriodQuota,
    double zeroCpusSharesFraction,
    double zeroCpusQuotaFraction,
    boolean ncpusAreCores,
    boolean useHyperthreads) {

  /** The OpenPBS hook's defaults, which are also ClusterConfig's. */
  public static final CgroupCpuTunables DEFAULTS =
      new CgroupCpuTunables(100_000, 1.03, false, 0.002, 0.2, false, false);

  public CgroupCpuTunables {
    new Problems("cluster_config.")
        .inRange("cfs_period_us", cfsPeriodUs, KernelCpuLimits.MIN_PERIOD_US, KernelCpuLimits.MAX_PERIOD_US)
        .greaterThan("cfs_quota_fudge_factor", cfsQuotaFudgeFactor, 0)
        .atLeast("zero_cpus_shares_fraction", zeroCpusSharesFraction, 0)
        .atLeast("zero_cpus_quota_fraction", zeroCpusQuotaFraction, 0)
        .throwIfAny();
  }

  /** PBS multiplies the CPU count by threads per core only when both flags are set. */
  boolean multipliesByThreadsPerCore() {
    return ncpusAreCores && useHyperthreads;
  }
}
