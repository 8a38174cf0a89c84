package io.quotaflow.streams.engine.pools;

/**
 * What a pool's live tasks ask for in one period.
 *
 * @param demandCpu sum of the tasks' hard limits, cores
 * @param usageCpu sum of the tasks' soft limits (what the CPU monitor "sends to the scheduler"), cores
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
