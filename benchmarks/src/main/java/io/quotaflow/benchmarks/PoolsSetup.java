package io.quotaflow.benchmarks;

import io.quotaflow.streams.engine.pools.PoolSpec;
import java.util.List;

/**
 * One way to give the seed's two pools their guarantees: the integral pools of seed 003, or strong
 * guarantees only, on the cluster size each needs or is given.
 */
enum PoolsSetup {
  INTEGRAL("integral: burst + relaxed", 2000,
      PoolSpec.burst(PoolsScenario.PRODUCTION, 1000, 2000),
      PoolSpec.relaxed(PoolsScenario.RESEARCH, 1000)),
  STRONG_AVERAGES("strong: each pool's average", 2000,
      PoolSpec.of(PoolsScenario.PRODUCTION).withStrongGuaranteeCpu(1000),
      PoolSpec.of(PoolsScenario.RESEARCH).withStrongGuaranteeCpu(1000)),
  STRONG_PRODUCTION_PEAK("strong: production's peak only", 2000,
      PoolSpec.of(PoolsScenario.PRODUCTION).withStrongGuaranteeCpu(2000),
      PoolSpec.of(PoolsScenario.RESEARCH)),
  STRONG_BOTH("strong: production's peak + research's average", 3000,
      PoolSpec.of(PoolsScenario.PRODUCTION).withStrongGuaranteeCpu(2000),
      PoolSpec.of(PoolsScenario.RESEARCH).withStrongGuaranteeCpu(1000));

  final String label;
  final double clusterCpu;
  final List<PoolSpec> pools;

  PoolsSetup(String label, double clusterCpu, PoolSpec... pools) {
    this.label = label;
    this.clusterCpu = clusterCpu;
    this.pools = List.of(pools);
  }
}
