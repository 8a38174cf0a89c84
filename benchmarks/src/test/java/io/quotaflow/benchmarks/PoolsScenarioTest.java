package io.quotaflow.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The seed's claims, checked on a coarser period (10 s) than the bench's so the suite stays quick. */
class PoolsScenarioTest {

  private static final PoolsScenario TWO_DAYS = new PoolsScenario(2, 10_000, 300_000);

  @Test
  void integralPoolsGiveProductionItsPeakAndResearchItsAverageOnTwoThousandCores() {
    PoolsRun run = TWO_DAYS.run(PoolsSetup.INTEGRAL, true);

    assertThat(run.totals().productionFraction(0)).isGreaterThan(0.99);
    assertThat(run.totals().productionFraction(1)).isGreaterThan(0.99);
    // Research's work waits at most half a day and all of a day's worth is done on day 2.
    assertThat(run.totals().researchFraction(1)).isGreaterThan(0.99);
    assertThat(run.totals().researchLongestWaitS).isLessThanOrEqualTo(12.5 * 3600);
  }

  @Test
  void strongGuaranteesAtEachPoolsAverageGiveProductionHalfItsPeak() {
    PoolsRun run = TWO_DAYS.run(PoolsSetup.STRONG_AVERAGES, true);

    assertThat(run.totals().productionFraction()).isCloseTo(0.5, within(0.01));
    assertThat(run.totals().researchFraction(1)).isCloseTo(1.0, within(0.01));
  }

  @Test
  void strongGuaranteeForProductionsPeakOnlyLetsABestEffortPoolHalveResearch() {
    PoolsRun run = TWO_DAYS.run(PoolsSetup.STRONG_PRODUCTION_PEAK, true);

    assertThat(run.totals().productionFraction()).isCloseTo(1.0, within(1e-9));
    assertThat(run.totals().researchFraction(1)).isCloseTo(0.5, within(0.01));
  }

  @Test
  void strongGuaranteesForBothNeedThreeThousandCores() {
    PoolsRun run = TWO_DAYS.run(PoolsSetup.STRONG_BOTH, true);

    assertThat(PoolsSetup.STRONG_BOTH.clusterCpu).isEqualTo(3000.0);
    assertThat(run.totals().productionFraction()).isCloseTo(1.0, within(1e-9));
    assertThat(run.totals().researchFraction(1)).isCloseTo(1.0, within(1e-9));
  }

  @Test
  void productionVolumeFillsWhileIdleAndIsSpentOnItsPeak() {
    PoolsRun run = TWO_DAYS.run(PoolsSetup.INTEGRAL, false);
    Timeline timeline = run.timeline();
    int noon = bucketEndingAt(timeline, 12);
    int midnight = bucketEndingAt(timeline, 24);

    // Twelve idle hours at a flow of 1000 cores: 12,000 cpu·h, half the day's capacity.
    assertThat(timeline.productionVolumeCpuS[noon] / 3600).isCloseTo(12_000, within(5.0));
    assertThat(timeline.productionCapacityCpuS / 3600).isCloseTo(24_000, within(1e-6));
    assertThat(timeline.productionVolumeCpuS[midnight] / 3600).isLessThan(100);
  }

  @Test
  void productionPeaksFromHourTwelveToMidnight() {
    assertThat(PoolsScenario.productionPeaks(11.99 * 3600)).isFalse();
    assertThat(PoolsScenario.productionPeaks(12 * 3600)).isTrue();
    assertThat(PoolsScenario.productionPeaks(23.99 * 3600)).isTrue();
    assertThat(PoolsScenario.productionPeaks(24 * 3600)).isFalse();
    assertThat(PoolsScenario.productionPeaks(36 * 3600)).isTrue();
  }

  @Test
  void periodOutsideYtsaurusRangeIsRefused() {
    assertThatThrownBy(() -> new PoolsScenario(2, 5, 300_000)).hasMessageContaining("[10, 60000]");
    assertThatThrownBy(() -> new PoolsScenario(0, 1000, 300_000)).hasMessageContaining("days");
  }

  private static int bucketEndingAt(Timeline timeline, double hour) {
    for (int i = 0; i < timeline.buckets(); i++) {
      if (Math.abs(timeline.endHour(i) - hour) < 1e-9) {
        return i;
      }
    }
    throw new AssertionError("no bucket ends at hour " + hour);
  }
}
