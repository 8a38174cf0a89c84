package io.quotaflow.cgroups;

/**
 * What a task group's CPU files hold, as read (the counterpart of {@link CgroupCpuWrite}). A
 * field is null where this cgroup version has no such file ({@code shares} on v2, {@code weight}
 * on v1).
 *
 * @param quotaUs microseconds per period, {@link KernelCpuLimits#NO_QUOTA} for none
 */
public record CgroupCpuRead(Long shares, Long weight, long quotaUs, long periodUs) {

  /**
   * These values as a write, to put them back later (the enforcer's restore on {@code OFF}); the
   * field this version lacks is derived with the kernel's conversion.
   */
  public CgroupCpuWrite toWrite() {
    long w = weight != null ? weight : KernelCpuLimits.weightForShares(shares);
    return new CgroupCpuWrite(sharesEquivalent(), w, quotaUs, periodUs);
  }

  /** {@code cpu.shares} on v1; on v2 the weight as the kernel converts it to shares. */
  public long sharesEquivalent() {
    return shares != null ? shares : KernelCpuLimits.sharesForWeight(weight);
  }

  /** Quota in cores, null when there is none. */
  public Double quotaCores() {
    return quotaUs == KernelCpuLimits.NO_QUOTA ? null : (double) quotaUs / periodUs;
  }
}
