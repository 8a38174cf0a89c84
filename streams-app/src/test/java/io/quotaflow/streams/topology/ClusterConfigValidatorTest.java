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
  void aZeroCpuQuotaOfACoreOrMoreAndAFudgeAboveTwoAreValid() {
    // The PBS hook documents a zero_cpus_quota_fraction of 1.0 or higher as the way to stop throttling
    // zero-CPU tasks, and a larger fudge factor for short CFS periods.
    assertThat(ClusterConfigValidator.problems(defaults().setZeroCpusQuotaFraction(1.0).build())).isEmpty();
    assertThat(ClusterConfigValidator.problems(defaults().setZeroCpusQuotaFraction(4.0).build())).isEmpty();
    assertThat(ClusterConfigValidator.problems(defaults().setCfsQuotaFudgeFactor(3.0).setCfsPeriodUs(1_000).build()))
        .isEmpty();
    assertThat(ClusterConfigValidator.problems(defaults().setZeroCpusQuotaFraction(0.0).setCfsQuotaFudgeFactor(0.9)
        .build())).containsExactlyInAnyOrder(
            "cfs_quota_fudge_factor must be in [1, 10], was 0.9",
            "zero_cpus_quota_fraction must be in [0.01, 8192], was 0");
  }

  @Test
  void releaseAboveThresholdIsRefused() {
    assertThat(ClusterConfigValidator.problems(defaults().setPeakThresholdRatio(1.05).setPeakReleaseRatio(1.2).build()))
        .singleElement().asString().contains("peak_release_ratio 1.2 is above peak_threshold_ratio 1.05");
  }

  @Test
  void fieldProblemsLeaveOutTheRulesBetweenFields() {
    // quotaflow cluster set checks single fields before it has read the threshold in force.
    ClusterConfig releaseAboveThreshold = defaults().setPeakThresholdRatio(1.05).setPeakReleaseRatio(1.2).build();
    assertThat(ClusterConfigValidator.fieldProblems(releaseAboveThreshold)).isEmpty();
    assertThat(ClusterConfigValidator.fieldProblems(defaults().setPeakReleaseRatio(0.5).build()))
        .containsExactly("peak_release_ratio must be in [1, 100], was 0.5");
  }

  @Test
  void anUnsafeClusterIdIsRefused() {
    assertThat(ClusterConfigValidator.problems(defaults().setCluster("../etc").build()))
        .singleElement().asString().startsWith("cluster id '../etc'");
  }
}
