package io.quotaflow.benchmarks;

import io.quotaflow.streams.engine.pools.PoolAttributes;

/**
 * The scenario over time, one point per bucket: CPU values are the bucket's mean, volumes and the
 * queue its last value (the state at the bucket's end).
 */
final class Timeline {

  final long bucketMs;
  final double clusterCpu;
  final double[] productionDemandCpu;
  final double[] productionFairShareCpu;
  final double[] productionVolumeCpuS;
  /** The engine's estimated_burst_usage_duration_seconds; NaN where it gives none. */
  final double[] productionBurstDurationS;
  final double[] researchDemandCpu;
  final double[] researchFairShareCpu;
  final double[] researchVolumeCpuS;
  final double[] researchQueueCpuS;
  final double[] bestEffortFairShareCpu;
  double productionCapacityCpuS;
  double researchCapacityCpuS;
  private final int[] samples;

  Timeline(int buckets, long bucketMs, double clusterCpu) {
    this.bucketMs = bucketMs;
    this.clusterCpu = clusterCpu;
    productionDemandCpu = new double[buckets];
    productionFairShareCpu = new double[buckets];
    productionVolumeCpuS = new double[buckets];
    productionBurstDurationS = new double[buckets];
    researchDemandCpu = new double[buckets];
    researchFairShareCpu = new double[buckets];
    researchVolumeCpuS = new double[buckets];
    researchQueueCpuS = new double[buckets];
    bestEffortFairShareCpu = new double[buckets];
    samples = new int[buckets];
  }

  int buckets() {
    return samples.length;
  }

  /** Hours from the start to the end of bucket {@code i}. */
  double endHour(int i) {
    return (i + 1) * bucketMs / 3_600_000.0;
  }

  void add(int bucket, PoolAttributes production, PoolAttributes research, double queueCpuS, double bestEffortCpu) {
    int n = ++samples[bucket];
    productionDemandCpu[bucket] += (production.demandCpu() - productionDemandCpu[bucket]) / n;
    productionFairShareCpu[bucket] += (production.fairShareCpu() - productionFairShareCpu[bucket]) / n;
    researchDemandCpu[bucket] += (research.demandCpu() - researchDemandCpu[bucket]) / n;
    researchFairShareCpu[bucket] += (research.fairShareCpu() - researchFairShareCpu[bucket]) / n;
    bestEffortFairShareCpu[bucket] += (bestEffortCpu - bestEffortFairShareCpu[bucket]) / n;
    productionVolumeCpuS[bucket] = production.accumulatedResourceVolumeCpu();
    Double burstDurationS = production.estimatedBurstUsageDurationSeconds();
    productionBurstDurationS[bucket] = burstDurationS == null ? Double.NaN : burstDurationS;
    researchVolumeCpuS[bucket] = research.accumulatedResourceVolumeCpu();
    researchQueueCpuS[bucket] = queueCpuS;
    // integral_pool_capacity is in cluster-share-seconds.
    productionCapacityCpuS = production.integralPoolCapacity() * clusterCpu;
    researchCapacityCpuS = research.integralPoolCapacity() * clusterCpu;
  }
}
