package io.quotaflow.streams.engine.pools;

/**
 * How a pool's fair share acts on its tasks without a scheduler (DESIGN §3, "What it enforces"):
 * only when the cluster is overcommitted, a pool whose tasks' reported limits add up to more than its
 * fair share has every task scaled down by the same factor, so it yields CPU weight to pools still
 * within their share.
 */
public final class PoolCaps {

  private PoolCaps() {}

  /** {@code min(1, fairShare / Σ reported)} when overcommitted, else 1; 1 when the pool has no usage. */
  public static double capRatio(double fairShareCpu, double usageCpu, boolean overcommitted) {
    if (!overcommitted || usageCpu <= 0) {
      return 1.0;
    }
    return Math.min(1.0, fairShareCpu / usageCpu);
  }

  /** A task's {@code effective_limit_cpu}: its reported limit times its pool's cap ratio. */
  public static double effectiveLimitCpu(double reportedLimitCpu, double capRatio) {
    return reportedLimitCpu * capRatio;
  }
}
