package io.quotaflow.cgroups;

/**
 * What the Linux CPU controller accepts and how it converts, stated once for every module: the
 * engine computes within these bounds, the enforcer writes within them, the demo reads with them.
 * Plain constants and functions, no I/O. Sources: {@code kernel/sched/sched.h} (MIN/MAX_SHARES),
 * {@code kernel/sched/core.c} ({@code tg_set_cfs_bandwidth}, {@code cpu_weight_write_u64}),
 * {@code Documentation/admin-guide/cgroup-v2.rst}.
 */
public final class KernelCpuLimits {

  /** v1 {@code cpu.shares}: the kernel clamps a written value silently into [2, 262144]. */
  public static final long MIN_SHARES = 2;
  public static final long MAX_SHARES = 262_144;

  /** v2 {@code cpu.weight}: a value outside [1, 10000] is refused with ERANGE, not clamped. */
  public static final long MIN_WEIGHT = 1;
  public static final long MAX_WEIGHT = 10_000;

  /** The CFS period of {@code cpu.cfs_period_us} / {@code cpu.max}: 1 ms to 1 s, else EINVAL. */
  public static final long MIN_PERIOD_US = 1_000;
  public static final long MAX_PERIOD_US = 1_000_000;

  /** The smallest CFS quota the kernel takes (1 ms), else EINVAL. */
  public static final long MIN_QUOTA_US = 1_000;
  /** The kernel's max_cfs_runtime: (2^44 - 1) usec, about 203 days. */
  public static final long MAX_QUOTA_US = (1L << 44) - 1;

  /** No quota: v1 {@code cpu.cfs_quota_us = -1}, v2 {@code cpu.max = "max <period>"}. */
  public static final long NO_QUOTA = -1;

  private KernelCpuLimits() {}

  /** The value v1 {@code cpu.shares} reads back after {@code shares} is written. */
  public static long clampShares(long shares) {
    return clamp(shares, MIN_SHARES, MAX_SHARES);
  }

  /**
   * Shares to a v2 weight: {@code clamp(round(shares x 100 / 1024), 1, 10000)}, rounding half up in
   * integers as the kernel converts between the two ({@code sched_weight_to_cgroup}); linear, so
   * ratios between groups survive. Also systemd's mapping. Shares are clamped first, as the
   * kernel clamps a written {@code cpu.shares}.
   */
  public static long weightForShares(long shares) {
    return clamp((clampShares(shares) * 100 + 512) / 1024, MIN_WEIGHT, MAX_WEIGHT);
  }

  /** The inverse: {@code clamp(round(weight x 1024 / 100), 2, 262144)} ({@code sched_weight_from_cgroup}). */
  public static long sharesForWeight(long weight) {
    return clamp((weight * 1024 + 50) / 100, MIN_SHARES, MAX_SHARES);
  }

  private static long clamp(long value, long lo, long hi) {
    return Math.min(Math.max(value, lo), hi);
  }
}
