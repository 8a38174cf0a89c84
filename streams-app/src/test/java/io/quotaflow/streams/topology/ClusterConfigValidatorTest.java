package io.quotaflow.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.avro.ClusterConfig;
import org.junit.jupiter.api.Test;

class ClusterConfigValidatorTest {

  private static ClusterConfig.Builder defaults() {
    return ClusterConfig.newBuilder().setCluster("main");
  }

  @Test
  void theDefaultsAreValid() {
    assertThat(ClusterConfigValidator.problems(defaults().build())).isEmpty();
  }

  @Test
  void namesEachBadFieldWithItsRange() {
    ClusterConfig bad = defaults().setCfsPeriodUs(500).setTotalCpu(Double.NaN).setZeroCpusSharesFraction(-0.1)
        .setMaxConcurrentPeaks(0).setFreezeLeaseMs(0).build();
    assertThat(ClusterConfigValidator.problems(bad)).containsExactlyInAnyOrder(
        "total_cpu must be a positive finite number, was NaN",
        "cfs_period_us must be in [1000, 1000000], was 500",
        "zero_cpus_shares_fraction must be in [0, 1], was -0.1",
        "max_concurrent_peaks must be at least 1, was 0",
        "freeze_lease_ms must be at least 2000 (twice the collector's 1 s sample period), was 0: a shorter lease"
            + " runs out between renewals and thaws waiting tasks");
  }

  @Test
  void releaseAboveThresholdIsRefused() {
    assertThat(ClusterConfigValidator.problems(defaults().setPeakThresholdRatio(1.05).setPeakReleaseRatio(1.2).build()))
        .singleElement().asString().contains("peak_release_ratio 1.2 is above peak_threshold_ratio 1.05");
  }

  @Test
  void anUnsafeClusterIdIsRefused() {
    assertThat(ClusterConfigValidator.problems(defaults().setCluster("../etc").build()))
        .singleElement().asString().startsWith("cluster id '../etc'");
  }
}
