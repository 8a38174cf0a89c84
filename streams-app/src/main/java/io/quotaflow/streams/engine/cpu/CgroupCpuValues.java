package io.quotaflow.streams.engine.cpu;

/**
 * Exactly what the enforcer writes (CpuDecision.cgroup). The constructor holds every value to a
 * range the kernel accepts, so a record that exists can be written.
 *
 * @param shares   v1 cpu.shares, [2, 262144]
 * @param weight   v2 cpu.weight, [1, 10000]
 * @param quotaUs  CFS quota per period, usec: -1 for none (v1 cfs_quota_us -1, v2 "max"), else
 *                 [1000, {@link #MAX_QUOTA_US}]
 * @param periodUs CFS period, usec, [1000, 1000000]
 */
public record CgroupCpuValues(long shares, long weight, long quotaUs, long periodUs) {

  public static final long MIN_SHARES = 2;
  public static final long MAX_SHARES = 262_144;
  public static final long MIN_WEIGHT = 1;
  public static final long MAX_WEIGHT = 10_000;
  public static final long NO_QUOTA = -1;
  public static final long MIN_QUOTA_US = 1_000;
  /** The kernel's max_cfs_runtime: (2^44 - 1) usec, about 203 days. */
  public static final long MAX_QUOTA_US = (1L << 44) - 1;

  public CgroupCpuValues {
    Problems problems = new Problems("cgroup.")
        .inRange("shares", shares, MIN_SHARES, MAX_SHARES)
        .inRange("weight", weight, MIN_WEIGHT, MAX_WEIGHT)
        .inRange("period_us", periodUs, CpuCgroupConfig.MIN_PERIOD_US, CpuCgroupConfig.MAX_PERIOD_US);
    if (quotaUs != NO_QUOTA) {
      problems.inRange("quota_us", quotaUs, MIN_QUOTA_US, MAX_QUOTA_US);
    }
    problems.throwIfAny();
  }

  public boolean hasQuota() {
    return quotaUs != NO_QUOTA;
  }
}
