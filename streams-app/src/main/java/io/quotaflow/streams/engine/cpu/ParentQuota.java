package io.quotaflow.streams.engine.cpu;

/**
 * The CFS bandwidth of the parent group that holds the task groups, as read from its files.
 *
 * @param quotaUs  the parent's cpu.cfs_quota_us; &lt;= 0 (the kernel's -1) means no limit
 * @param periodUs the parent's cpu.cfs_period_us, &gt; 0
 */
public record ParentQuota(long quotaUs, long periodUs) {

  public ParentQuota {
    new Problems("parent.").greaterThan("cfs_period_us", periodUs, 0).throwIfAny();
  }

  public boolean isLimited() {
    return quotaUs > 0;
  }
}
