package io.quotaflow.streams.engine.pools;

/**
 * What a pool's live tasks ask for in one period.
 *
 * @param demandCpu sum of the tasks' reported limits (DESIGN §1: soft with reclaim on, hard with it off), cores
 * @param usageCpu the same sum in the running app (what the CPU monitor "sends to the scheduler"); the
 *     engine keeps them apart so benchmarks can feed other usage
 */
public record PoolLoad(double demandCpu, double usageCpu) {

  /** A pool with no live task. */
  public static final PoolLoad IDLE = new PoolLoad(0.0, 0.0);

  public PoolLoad {
    if (!(demandCpu >= 0) || Double.isInfinite(demandCpu)) {
      throw new IllegalArgumentException("demand_cpu must be a finite number >= 0, got " + demandCpu);
    }
    if (!(usageCpu >= 0) || Double.isInfinite(usageCpu)) {
      throw new IllegalArgumentException("usage_cpu must be a finite number >= 0, got " + usageCpu);
    }
  }

  /** Tasks whose soft limits equal their hard limits (no reclaim). */
  public static PoolLoad ofDemand(double demandCpu) {
    return new PoolLoad(demandCpu, demandCpu);
  }
}
