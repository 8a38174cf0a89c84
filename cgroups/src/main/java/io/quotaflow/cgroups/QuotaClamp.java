package io.quotaflow.cgroups;

/**
 * A v1 quota lowered to what the task group's parent groups allow. The kernel refuses (EINVAL) a
 * child whose quota/period exceeds that of an ancestor with a quota ({@code tg_cfs_schedulable_down}),
 * so instead of failing the write, the most they admit at the requested period is written.
 *
 * @param requestedUs the quota asked for, per {@code periodUs}
 * @param writtenUs the quota written instead, per {@code periodUs}: less than {@code requestedUs}
 * @param periodUs the CFS period both are per
 */
public record QuotaClamp(long requestedUs, long writtenUs, long periodUs) {

  public QuotaClamp {
    if (writtenUs >= requestedUs) {
      throw new IllegalArgumentException("a clamp lowers the quota: " + requestedUs + " -> " + writtenUs);
    }
  }
}
