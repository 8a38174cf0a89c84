package io.quotaflow.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SoakVerdictTest {

  private static final double[] HOURS = {0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6};

  @Test
  void aSeriesThatOnlyRisesDuringWarmUpIsFlatAndItsSlopeComesFromTheLastTwoThirds() {
    SoakVerdict verdict = SoakVerdict.of(HOURS, new double[] {10, 50, 100, 100, 100, 100, 100}, 0.1, 0);

    assertThat(verdict.slopePerHour()).isCloseTo(0, within(1e-9));
    assertThat(verdict.mean()).isEqualTo(100);
    assertThat(verdict.flat()).isTrue();
    assertThat(verdict.start()).isEqualTo(10);
    assertThat(verdict.end()).isEqualTo(100);
    assertThat(verdict.min()).isEqualTo(10);
    assertThat(verdict.max()).isEqualTo(100);
  }

  @Test
  void aSteadyClimbOfAFifthOfItsMeanPerHourIsNotFlatAtTenPercent() {
    // 100 → 110 over the last 0.4 h: 25 units/h on a mean of 105.
    SoakVerdict verdict = SoakVerdict.of(HOURS, new double[] {0, 0, 100, 102.5, 105, 107.5, 110}, 0.1, 0);

    assertThat(verdict.slopePerHour()).isCloseTo(25, within(1e-9));
    assertThat(verdict.relativePerHour()).isCloseTo(25 / 105.0, within(1e-9));
    assertThat(verdict.flat()).isFalse();
    assertThat(verdict.word()).isEqualTo("GROWS");
  }

  @Test
  void aSeriesNearZeroIsJudgedAgainstItsNoiseFloor() {
    double[] lag = {0, 5, 0, 10, 0, 20, 30};
    assertThat(SoakVerdict.of(HOURS, lag, 0.1, 0).flat()).as("against its mean of 12").isFalse();
    assertThat(SoakVerdict.of(HOURS, lag, 0.1, 2_000).flat()).as("against a floor of 2,000").isTrue();
  }
}
