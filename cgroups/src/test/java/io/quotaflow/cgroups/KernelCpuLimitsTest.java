package io.quotaflow.cgroups;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KernelCpuLimitsTest {

  @Test
  void weightIsLinearInSharesAndRoundsHalfUpLikeTheKernel() {
    assertThat(KernelCpuLimits.weightForShares(1024)).isEqualTo(100);
    assertThat(KernelCpuLimits.weightForShares(1000)).isEqualTo(98);   // 97.66
    assertThat(KernelCpuLimits.weightForShares(128)).isEqualTo(13);    // exactly 12.5
    assertThat(KernelCpuLimits.weightForShares(384)).isEqualTo(38);    // exactly 37.5
    assertThat(KernelCpuLimits.weightForShares(15)).isEqualTo(1);      // 1.46
    assertThat(KernelCpuLimits.weightForShares(2)).isEqualTo(1);
    assertThat(KernelCpuLimits.weightForShares(102_400)).isEqualTo(10_000);
    assertThat(KernelCpuLimits.weightForShares(262_144)).isEqualTo(10_000);
  }

  @Test
  void sharesOutsideTheKernelsRangeConvertAsTheKernelClampsThem() {
    assertThat(KernelCpuLimits.weightForShares(Long.MAX_VALUE)).isEqualTo(10_000);
    assertThat(KernelCpuLimits.weightForShares(0)).isEqualTo(1);
    assertThat(KernelCpuLimits.clampShares(1)).isEqualTo(2);
    assertThat(KernelCpuLimits.clampShares(300_000)).isEqualTo(262_144);
    assertThat(KernelCpuLimits.clampShares(4000)).isEqualTo(4000);
  }

  @Test
  void weightConvertsBackToSharesAsTheKernelStoresIt() {
    // cgroup-v2.rst: weight 1 is shares 10, 100 is 1024, 10000 only 102400.
    assertThat(KernelCpuLimits.sharesForWeight(1)).isEqualTo(10);
    assertThat(KernelCpuLimits.sharesForWeight(100)).isEqualTo(1024);
    assertThat(KernelCpuLimits.sharesForWeight(10_000)).isEqualTo(102_400);
    assertThat(KernelCpuLimits.sharesForWeight(39)).isEqualTo(399);    // 399.36
    assertThat(KernelCpuLimits.sharesForWeight(0)).isEqualTo(2);       // cpu.idle groups read weight 0
  }

  @Test
  void everyWeightSurvivesTheRoundTripThroughShares() {
    for (long weight = KernelCpuLimits.MIN_WEIGHT; weight <= KernelCpuLimits.MAX_WEIGHT; weight++) {
      assertThat(KernelCpuLimits.weightForShares(KernelCpuLimits.sharesForWeight(weight))).isEqualTo(weight);
    }
  }
}
