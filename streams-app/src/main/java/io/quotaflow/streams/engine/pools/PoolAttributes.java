package io.quotaflow.streams.engine.pools;

/**
 * A pool's attributes after one update: the fields of the Avro {@code PoolState} (YTsaurus orchid
 * names), as a plain value. Ratios are fractions of the cluster's CPU; ratio volumes are
 * cluster-share-seconds.
 *
 * @param accumulatedResourceRatioVolume V/T
 * @param accumulatedResourceVolumeCpu V, cpu-seconds
 * @param integralPoolCapacity f·K, share-seconds
 * @param specifiedBurstRatio b as configured (before overcommit scaling)
 * @param specifiedResourceFlowRatio f
 * @param totalBurstRatio b after the strong+burst overcommit scaling (flat pools: no descendants to add)
 * @param totalResourceFlowRatio f (flat pools: no descendants to add)
 * @param estimatedBurstUsageDurationSeconds (V/T)/(b−f): how long the volume lasts at full burst
 *     while the flow keeps refilling; null when b ≤ f + 1e-4
 * @param demandCpu sum of live tasks' hard limits
 * @param usageCpu sum of live tasks' soft limits
 * @param strongCpu part of the fair share granted by the strong guarantee
 * @param integralCpu part of the fair share granted from the volume (burst or relaxed)
 * @param fairShareCpu the whole fair share: strong + integral + the weight-proportional rest
 */
public record PoolAttributes(
    String pool,
    long tsMs,
    double accumulatedResourceRatioVolume,
    double accumulatedResourceVolumeCpu,
    double integralPoolCapacity,
    double specifiedBurstRatio,
    double specifiedResourceFlowRatio,
    double totalBurstRatio,
    double totalResourceFlowRatio,
    Double estimatedBurstUsageDurationSeconds,
    double demandCpu,
    double usageCpu,
    double strongCpu,
    double integralCpu,
    double fairShareCpu) {

  /** Fair share above the guarantees, handed out by weight. */
  public double weightProportionalCpu() {
    return fairShareCpu - strongCpu - integralCpu;
  }
}
