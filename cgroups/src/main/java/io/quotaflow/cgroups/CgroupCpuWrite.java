package io.quotaflow.cgroups;

/**
 * The values written to a task group's CPU files ({@code cpu.shares}, {@code cpu.cfs_*} on v1;
 * {@code cpu.weight}, {@code cpu.max} on v2): the enforcer's copy of a decision's Avro
 * {@code CgroupCpuSettings} (DESIGN §2), which the engine computed as a {@code CgroupCpuTarget}.
 * What the files hold afterwards is a {@link CgroupCpuRead}.
 *
 * <p>v1 uses {@code shares}, {@code quotaUs}, {@code periodUs}; v2 uses {@code weight},
 * {@code quotaUs}, {@code periodUs}. Both are carried so one decision serves either node.
 * Range checks beyond sign are left to the kernel on purpose, so an out-of-range value surfaces
 * as the kernel's own error with the file and value.
 *
 * @param shares v1 {@code cpu.shares}; the kernel clamps it ({@link KernelCpuLimits#clampShares})
 * @param weight v2 {@code cpu.weight}; the kernel rejects values outside
 *     [{@link KernelCpuLimits#MIN_WEIGHT}, {@link KernelCpuLimits#MAX_WEIGHT}] with ERANGE
 * @param quotaUs CFS quota per period in microseconds, {@link KernelCpuLimits#NO_QUOTA} for none
 * @param periodUs CFS period in microseconds (the kernel accepts
 *     [{@link KernelCpuLimits#MIN_PERIOD_US}, {@link KernelCpuLimits#MAX_PERIOD_US}])
 */
public record CgroupCpuWrite(long shares, long weight, long quotaUs, long periodUs) {

  public CgroupCpuWrite {
    if (shares <= 0 || weight <= 0) {
      throw new IllegalArgumentException("shares and weight must be positive: " + shares + ", " + weight);
    }
    if (quotaUs != KernelCpuLimits.NO_QUOTA && quotaUs <= 0) {
      throw new IllegalArgumentException("quota_us must be positive or -1 (none): " + quotaUs);
    }
    if (periodUs <= 0) {
      throw new IllegalArgumentException("period_us must be positive: " + periodUs);
    }
  }

  /** The value v1 {@code cpu.shares} reads back after writing {@code shares} (kernel clamp). */
  public long kernelShares() {
    return KernelCpuLimits.clampShares(shares);
  }
}
