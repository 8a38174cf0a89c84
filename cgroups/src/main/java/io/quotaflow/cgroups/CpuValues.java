package io.quotaflow.cgroups;

/**
 * CPU settings as read from a cgroup. A field is null where this cgroup version has no such
 * file ({@code shares} on v2, {@code weight} on v1).
 *
 * @param quotaUs microseconds per period, {@link CpuSettings#NO_QUOTA} for none
 */
public record CpuValues(Long shares, Long weight, long quotaUs, long periodUs) {

  /**
   * These values as settings to write back later (the enforcer's restore on {@code OFF}); the
   * field this version lacks is derived with DESIGN §2's mapping.
   */
  public CpuSettings toSettings() {
    long s = shares != null ? shares : CpuSettings.sharesForWeight(weight);
    long w = weight != null ? weight : CpuSettings.weightForShares(shares);
    return new CpuSettings(s, w, quotaUs, periodUs);
  }

  /** Quota in cores, null when there is none. */
  public Double quotaCores() {
    return quotaUs == CpuSettings.NO_QUOTA ? null : (double) quotaUs / periodUs;
  }
}
