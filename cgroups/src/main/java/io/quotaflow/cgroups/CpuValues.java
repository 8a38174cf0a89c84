package io.quotaflow.cgroups;

/**
 * CPU settings as read from a cgroup. A field is null where this cgroup version has no such
 * file ({@code shares} on v2, {@code weight} on v1).
 *
 * @param quotaUs microseconds per period, {@link KernelCpuLimits#NO_QUOTA} for none
 */
public record CpuValues(Long shares, Long weight, long quotaUs, long periodUs) {

  /**
   * These values as settings to write back later (the enforcer's restore on {@code OFF}); the
   * field this version lacks is derived with the kernel's conversion.
   */
  public CpuSettings toSettings() {
    long w = weight != null ? weight : KernelCpuLimits.weightForShares(shares);
    return new CpuSettings(sharesEquivalent(), w, quotaUs, periodUs);
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
