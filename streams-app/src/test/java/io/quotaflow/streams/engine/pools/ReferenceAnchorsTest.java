package io.quotaflow.streams.engine.pools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The numeric anchors of the YTsaurus notes (reference/ytsaurus-semantics.md §2.7, §2.8): a
 * 100-CPU cluster, K one day, S 60 s, the previous update 60 s before the one checked, so that a
 * pool's share by volume equals its flow ratio.
 */
class ReferenceAnchorsTest {

  private static final double T = 100.0;
  private static final double EPS = 1e-9;
  private static final PoolClusterSettings CLUSTER = PoolClusterSettings.defaults(T);

  private static PoolsUpdate oneMinuteLater(PoolsDriver driver, Map<String, PoolLoad> loads) {
    driver.first(loads);
    return driver.after(60, loads);
  }

  @Test
  void burstPoolWithFlowAndBurstOfTheWholeClusterGetsItAll() {
    PoolsDriver driver = new PoolsDriver(CLUSTER, PoolSpec.burst("burst", 100, 100));

    PoolAttributes burst = oneMinuteLater(driver, Map.of("burst", PoolLoad.ofDemand(100))).state("burst");

    assertThat(burst.integralCpu()).isCloseTo(100.0, within(EPS));
    assertThat(burst.fairShareCpu()).isCloseTo(100.0, within(EPS));
  }

  @Test
  void strongNinetyAndBurstSixtyAreScaledToSixtyAndForty() {
    PoolsDriver driver = new PoolsDriver(CLUSTER,
        PoolSpec.of("strong").withStrongGuaranteeCpu(90),
        PoolSpec.burst("burst", 60, 60));
    Map<String, PoolLoad> full = Map.of("strong", PoolLoad.ofDemand(100), "burst", PoolLoad.ofDemand(100));

    PoolsUpdate update = oneMinuteLater(driver, full);

    assertThat(update.state("strong").strongCpu()).isCloseTo(60.0, within(EPS));
    assertThat(update.state("strong").fairShareCpu()).isCloseTo(60.0, within(EPS));
    assertThat(update.state("burst").specifiedBurstRatio()).isCloseTo(0.6, within(EPS));
    assertThat(update.state("burst").totalBurstRatio()).isCloseTo(0.4, within(EPS));
    assertThat(update.state("burst").integralCpu()).isCloseTo(40.0, within(EPS));
    assertThat(update.warnings()).anyMatch(w -> w.contains("strong and burst guarantees exceed"));
  }

  @Test
  void burstPoolSpendsStrongFirstThenVolumeThenGetsTheRestByWeight() {
    PoolsDriver driver = new PoolsDriver(CLUSTER,
        PoolSpec.burst("burst", 10, 10).withStrongGuaranteeCpu(10));

    PoolAttributes burst = oneMinuteLater(driver, Map.of("burst", PoolLoad.ofDemand(30))).state("burst");

    assertThat(burst.strongCpu()).isCloseTo(10.0, within(EPS));
    assertThat(burst.integralCpu()).isCloseTo(10.0, within(EPS));
    assertThat(burst.weightProportionalCpu()).isCloseTo(10.0, within(EPS));
  }

  @Test
  void relaxedPoolsGetTheShareTheirVolumeBuys() {
    PoolsDriver driver = new PoolsDriver(CLUSTER, PoolSpec.relaxed("a", 100), PoolSpec.relaxed("b", 100));
    Map<String, PoolLoad> full = Map.of("a", PoolLoad.ofDemand(100), "b", PoolLoad.ofDemand(100));
    driver.first(Map.of());
    // 10% and 30% of the cluster for one smooth period; no time passes, so no refill.
    driver.giveVolume("a", 0.1 * T * 60);
    driver.giveVolume("b", 0.3 * T * 60);

    PoolsUpdate update = driver.after(0, full);

    assertThat(update.state("a").integralCpu()).isCloseTo(10.0, within(EPS));
    assertThat(update.state("b").integralCpu()).isCloseTo(30.0, within(EPS));
  }

  @Test
  void relaxedPoolWithStrongGuaranteeSharesTheRemainderEvenlyWithItsNeighbour() {
    PoolsDriver driver = new PoolsDriver(CLUSTER,
        PoolSpec.relaxed("strong", 100).withStrongGuaranteeCpu(40),
        PoolSpec.relaxed("plain", 100));
    Map<String, PoolLoad> full = Map.of("strong", PoolLoad.ofDemand(100), "plain", PoolLoad.ofDemand(100));

    PoolsUpdate update = oneMinuteLater(driver, full);

    assertThat(update.state("strong").strongCpu()).isCloseTo(40.0, within(EPS));
    assertThat(update.state("strong").integralCpu()).isCloseTo(30.0, within(EPS));
    assertThat(update.state("plain").integralCpu()).isCloseTo(30.0, within(EPS));
    assertThat(update.state("strong").fairShareCpu() + update.state("plain").fairShareCpu())
        .isCloseTo(100.0, within(EPS));
  }

  @Test
  void relaxedPoolsWithHugeVolumeAreHeldToThreeTimesTheirFlowByDefault() {
    assertThat(relaxedShareWithHugeVolume(CLUSTER)).isCloseTo(30.0, within(EPS));
  }

  @Test
  void relaxedMultiplierOfFiveLetsThemTakeFiveTimesTheirFlow() {
    assertThat(relaxedShareWithHugeVolume(CLUSTER.withRelaxedShareMultiplierLimit(5))).isCloseTo(50.0, within(EPS));
  }

  @Test
  void poolsOwnRelaxedMultiplierOverridesTheClusters() {
    PoolsDriver driver = new PoolsDriver(CLUSTER, PoolSpec.relaxed("a", 10).withRelaxedShareMultiplierLimit(5.0));
    driver.first(Map.of());
    driver.giveVolume("a", 1_000_000);

    assertThat(driver.after(0, Map.of("a", PoolLoad.ofDemand(100))).state("a").integralCpu())
        .isCloseTo(50.0, within(EPS));
  }

  private static double relaxedShareWithHugeVolume(PoolClusterSettings cluster) {
    PoolsDriver driver = new PoolsDriver(cluster, PoolSpec.relaxed("a", 10), PoolSpec.relaxed("b", 10));
    Map<String, PoolLoad> full = Map.of("a", PoolLoad.ofDemand(100), "b", PoolLoad.ofDemand(100));
    driver.first(Map.of());
    driver.giveVolume("a", 1_000_000);
    driver.giveVolume("b", 1_000_000);
    PoolsUpdate update = driver.after(0, full);
    assertThat(update.state("a").integralCpu()).isEqualTo(update.state("b").integralCpu());
    return update.state("a").integralCpu();
  }

  @Test
  void fullBurstLeavesNothingForTheRelaxedPool() {
    PoolsDriver driver = new PoolsDriver(CLUSTER, PoolSpec.burst("burst", 100, 100), PoolSpec.relaxed("relaxed", 100));
    Map<String, PoolLoad> full = Map.of("burst", PoolLoad.ofDemand(100), "relaxed", PoolLoad.ofDemand(100));

    PoolsUpdate update = oneMinuteLater(driver, full);

    assertThat(update.state("burst").integralCpu()).isCloseTo(100.0, within(EPS));
    assertThat(update.state("relaxed").integralCpu()).isCloseTo(0.0, within(EPS));
    assertThat(update.state("relaxed").fairShareCpu()).isCloseTo(0.0, within(EPS));
  }

  @Test
  void halfBurstLeavesTheOtherHalfToTheRelaxedPool() {
    PoolsDriver driver = new PoolsDriver(CLUSTER, PoolSpec.burst("burst", 100, 50), PoolSpec.relaxed("relaxed", 100));
    Map<String, PoolLoad> full = Map.of("burst", PoolLoad.ofDemand(100), "relaxed", PoolLoad.ofDemand(100));

    PoolsUpdate update = oneMinuteLater(driver, full);

    assertThat(update.state("burst").integralCpu()).isCloseTo(50.0, within(EPS));
    assertThat(update.state("relaxed").integralCpu()).isCloseTo(50.0, within(EPS));
  }

  @Test
  void relaxedPoolIdleForAMinuteThenGetsTwiceItsFlow() {
    PoolsDriver driver = new PoolsDriver(CLUSTER, PoolSpec.relaxed("relaxed", 10));
    driver.first(Map.of());
    assertThat(driver.after(60, Map.of()).state("relaxed").integralCpu()).isZero();

    PoolAttributes relaxed = driver.after(60, Map.of("relaxed", PoolLoad.ofDemand(100))).state("relaxed");

    assertThat(relaxed.accumulatedResourceRatioVolume()).isCloseTo(12.0, within(EPS));
    assertThat(relaxed.integralCpu()).isCloseTo(20.0, within(EPS));
  }
}
