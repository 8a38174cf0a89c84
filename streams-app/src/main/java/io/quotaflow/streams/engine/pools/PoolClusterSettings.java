package io.quotaflow.streams.engine.pools;

/**
 * The cluster-wide inputs of a pool update: the {@code ClusterConfig} fields the engine needs, with
 * {@code total_cpu} already resolved (the topology sums the nodes' cpus when the config leaves it null).
 *
 * @param totalCpu T, cores; 0 means nothing to share (volumes stay as they are)
 * @param poolCapacitySaturationPeriodS K: a pool's volume capacity is its flow share times K
 * @param smoothPeriodS S: the share a volume buys is (V/T)/S
 * @param relaxedShareMultiplierLimit M: a relaxed pool's integral share is at most M times its flow share
 */
public record PoolClusterSettings(
    double totalCpu,
    long poolCapacitySaturationPeriodS,
    long smoothPeriodS,
    double relaxedShareMultiplierLimit) {

  public static final long DEFAULT_POOL_CAPACITY_SATURATION_PERIOD_S = 86_400;
  public static final long DEFAULT_SMOOTH_PERIOD_S = 60;
  public static final double DEFAULT_RELAXED_SHARE_MULTIPLIER_LIMIT = 3.0;

  public PoolClusterSettings {
    if (!(totalCpu >= 0) || Double.isInfinite(totalCpu)) {
      throw new IllegalArgumentException("total_cpu must be a finite number >= 0, got " + totalCpu);
    }
    if (poolCapacitySaturationPeriodS <= 0) {
      throw new IllegalArgumentException(
          "pool_capacity_saturation_period_s must be > 0, got " + poolCapacitySaturationPeriodS);
    }
    if (smoothPeriodS <= 0) {
      throw new IllegalArgumentException("smooth_period_s must be > 0, got " + smoothPeriodS);
    }
    if (!(relaxedShareMultiplierLimit >= 1) || Double.isInfinite(relaxedShareMultiplierLimit)) {
      throw new IllegalArgumentException(
          "relaxed_share_multiplier_limit must be a finite number >= 1, got " + relaxedShareMultiplierLimit);
    }
  }

  /** The YTsaurus defaults (K one day, S one minute, M 3) on a cluster of {@code totalCpu} cores. */
  public static PoolClusterSettings defaults(double totalCpu) {
    return new PoolClusterSettings(totalCpu, DEFAULT_POOL_CAPACITY_SATURATION_PERIOD_S,
        DEFAULT_SMOOTH_PERIOD_S, DEFAULT_RELAXED_SHARE_MULTIPLIER_LIMIT);
  }

  public PoolClusterSettings withRelaxedShareMultiplierLimit(double value) {
    return new PoolClusterSettings(totalCpu, poolCapacitySaturationPeriodS, smoothPeriodS, value);
  }
}
