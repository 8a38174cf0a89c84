package io.quotaflow.streams.engine.pools;

/**
 * The token bucket of one integral pool: refill by the flow, charge what was granted at the
 * previous update, never below 0, never growing past {@code max(V_old, C)}.
 */
final class VolumeTick {

  private VolumeTick() {}

  /**
   * @param volumeCpu V before the tick, cpu-seconds
   * @param lastIntegralShareRatio L, the integral share granted at the previous update
   * @param elapsedS time since the previous update, seconds (already saturated at 0)
   * @param totalCpu T
   * @param flowRatio f
   * @param capacityS f·K, share-seconds
   * @return V after the tick, cpu-seconds
   */
  static double next(double volumeCpu, double lastIntegralShareRatio, double elapsedS,
      double totalCpu, double flowRatio, double capacityS) {
    double refilled = volumeCpu + totalCpu * elapsedS * flowRatio;
    double charged = Math.max(refilled - totalCpu * elapsedS * lastIntegralShareRatio, 0.0);
    // A capacity lowered below the current volume keeps the excess (consumption can still reduce
    // it) but stops it growing: a flow change never confiscates volume.
    double upperLimitCpu = Math.max(volumeCpu, totalCpu * capacityS);
    return Math.min(charged, upperLimitCpu);
  }
}
