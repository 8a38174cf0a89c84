package io.quotaflow.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quotaflow.cli.demo.CpuShareSplit.Claim;
import java.util.List;
import org.junit.jupiter.api.Test;

class CpuShareSplitTest {

  @Test
  void withoutContentionEveryGroupGetsWhatItWants() {
    double[] granted = CpuShareSplit.split(2.0, List.of(new Claim(1.0, 1024), new Claim(0.5, 2), new Claim(0.0, 1024)));
    assertThat(granted).containsExactly(new double[] {1.0, 0.5, 0.0}, within(1e-9));
  }

  @Test
  void underContentionCpusAreSplitByShares() {
    double[] granted = CpuShareSplit.split(1.0, List.of(new Claim(1.0, 1000), new Claim(1.0, 250)));
    assertThat(granted).containsExactly(new double[] {0.8, 0.2}, within(1e-9));
  }

  @Test
  void whatASatisfiedGroupLeavesGoesToTheOthersByShares() {
    // 3 busy groups on 2 cores: the 100-share one would get 2*100/2100 but asks less, so the rest split what it leaves.
    double[] granted = CpuShareSplit.split(2.0, List.of(new Claim(1.0, 1000), new Claim(1.0, 1000), new Claim(0.05, 100)));
    assertThat(granted).containsExactly(new double[] {0.975, 0.975, 0.05}, within(1e-9));
  }

  @Test
  void aWeightlessGroupGetsAlmostNothingNextToBusyOnes() {
    double[] granted = CpuShareSplit.split(2.0, List.of(new Claim(1.0, 1000), new Claim(1.0, 1000), new Claim(0.2, 2)));
    assertThat(granted[2]).isLessThan(0.005);
    assertThat(granted[0] + granted[1] + granted[2]).isCloseTo(2.0, within(1e-9));
  }
}
