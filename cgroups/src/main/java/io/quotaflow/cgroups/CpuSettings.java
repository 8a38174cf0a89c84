package io.quotaflow.cgroups;

/**
 * The CPU settings an enforcer writes (DESIGN §2, {@code CpuDecision.cgroup}).
 *
 * <p>v1 uses {@code shares}, {@code quotaUs}, {@code periodUs}; v2 uses {@code weight},
 * {@code quotaUs}, {@code periodUs}. Both are carried so one decision serves either node.
 * Range checks beyond sign are left to the kernel on purpose, so an out-of-range value surfaces
 * as the kernel's own error with the file and value.
 *
 * @param shares v1 {@code cpu.shares}; the kernel clamps it to [2, 262144]
 * @param weight v2 {@code cpu.weight}; the kernel rejects values outside [1, 10000] with ERANGE
 * @param quotaUs CFS quota per period in microseconds, {@link #NO_QUOTA} for none
 * @param periodUs CFS period in microseconds (the kernel accepts [1000, 1000000])
 */
public record CpuSettings(long shares, long weight, long quotaUs, long periodUs) {

  public static final long NO_QUOTA = -1;
  public static final long MIN_SHARES = 2;
  public static final long MAX_SHARES = 262_144;
  public static final long MIN_WEIGHT = 1;
  public static final long MAX_WEIGHT = 10_000;

  public CpuSettings {
    if (shares <= 0 || weight <= 0) {
      throw new IllegalArgumentException("shares and weight must be positive: " + shares + ", " + weight);
    }
    if (quotaUs != NO_QUOTA && quotaUs <= 0) {
      throw new IllegalArgumentException("quota_us must be positive or -1 (none): " + quotaUs);
    }
    if (periodUs <= 0) {
      throw new IllegalArgumentException("period_us must be positive: " + periodUs);
    }
  }

  /** The value v1 {@code cpu.shares} reads back after writing {@code shares} (kernel clamp). */
  public long kernelShares() {
    return Math.max(MIN_SHARES, Math.min(MAX_SHARES, shares));
  }

  /** DESIGN §2's linear v1→v2 mapping, for settings that only know shares. */
  public static long weightForShares(long shares) {
    long weight = Math.round(shares * 100.0 / 1024.0);
    return Math.max(MIN_WEIGHT, Math.min(MAX_WEIGHT, weight));
  }

  /** The inverse mapping (systemd's), for settings that only know a weight. */
  public static long sharesForWeight(long weight) {
    long shares = Math.round(weight * 1024.0 / 100.0);
    return Math.max(MIN_SHARES, Math.min(MAX_SHARES, shares));
  }
}
