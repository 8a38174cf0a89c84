package io.quotaflow.streams.engine.pools;

/**
 * What one pool carries from one update to the next; the topology keeps it in a changelogged store
 * so that a restart continues exactly where it stopped.
 *
 * @param accumulatedResourceVolumeCpu V, cpu-seconds
 * @param lastIntegralShareRatio L: the integral share granted at the previous update, a fraction of
 *     the cluster; the next tick charges the pool for it, whatever the pool really used
 * @param lastUpdateMs stream time of the previous update, epoch ms; null before the pool's first update
 */
public record PoolVolumeState(
    double accumulatedResourceVolumeCpu,
    double lastIntegralShareRatio,
    Long lastUpdateMs) {

  /** A new pool: empty volume, nothing granted, never updated (as a new YTsaurus pool). */
  public static final PoolVolumeState INITIAL = new PoolVolumeState(0.0, 0.0, null);

  public PoolVolumeState {
    if (!(accumulatedResourceVolumeCpu >= 0) || Double.isInfinite(accumulatedResourceVolumeCpu)) {
      throw new IllegalArgumentException(
          "accumulated_resource_volume_cpu must be a finite number >= 0, got " + accumulatedResourceVolumeCpu);
    }
    if (!(lastIntegralShareRatio >= 0) || Double.isInfinite(lastIntegralShareRatio)) {
      throw new IllegalArgumentException(
          "last integral share must be a finite number >= 0, got " + lastIntegralShareRatio);
    }
  }
}
