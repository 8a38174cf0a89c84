package io.quotaflow.streams.engine.pools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IntegralPoolsTest {

  private static final double EPS = 1e-9;
  private static final PoolClusterSettings CLUSTER = PoolClusterSettings.defaults(100);

  @Test
  void strongGuaranteeCoveringDemandLeavesTheVolumeUnspent() {
    PoolsDriver driver = new PoolsDriver(CLUSTER, PoolSpec.burst("b", 10, 50).withStrongGuaranteeCpu(30));
    driver.first(Map.of());
    driver.giveVolume("b", 50_000);
    Map<String, PoolLoad> demand = Map.of("b", PoolLoad.ofDemand(25));

    PoolAttributes granted = driver.after(0, demand).state("b");
    PoolAttributes later = driver.after(60, demand).state("b");

    assertThat(granted.strongCpu()).isCloseTo(25.0, within(EPS));
    assertThat(granted.integralCpu()).isZero();
    assertThat(later.accumulatedResourceVolumeCpu()).isCloseTo(50_000 + 60 * 10, within(EPS));
  }

  @Test
  void burstTapersOnceTheVolumeBuysLessThanTheBurstOverOneSmoothPeriod() {
    PoolsDriver driver = new PoolsDriver(CLUSTER, PoolSpec.burst("b", 10, 50));
    driver.first(Map.of());
    // 0.2 of the cluster for 60 s: buys 20 cores, less than the 50-core burst.
    driver.giveVolume("b", 0.2 * 100 * 60);

    PoolAttributes pool = driver.after(0, Map.of("b", PoolLoad.ofDemand(100))).state("b");

    assertThat(pool.integralCpu()).isCloseTo(20.0, within(EPS));
    assertThat(pool.fairShareCpu()).isCloseTo(100.0, within(EPS));
  }

  @Test
  void burstPoolsDoNotCompeteWithEachOtherForTheirBursts() {
    PoolsDriver driver = new PoolsDriver(CLUSTER, PoolSpec.burst("a", 10, 50), PoolSpec.burst("b", 10, 50));
    driver.first(Map.of());
    driver.giveVolume("a", 1_000_000);
    driver.giveVolume("b", 1_000_000);

    PoolsUpdate update = driver.after(0, Map.of("a", PoolLoad.ofDemand(100), "b", PoolLoad.ofDemand(100)));

    assertThat(update.state("a").integralCpu()).isCloseTo(50.0, within(EPS));
    assertThat(update.state("b").integralCpu()).isCloseTo(50.0, within(EPS));
  }

  @Test
  void relaxedPoolRunsOnAnIdleStrongGuarantee() {
    PoolsDriver driver = new PoolsDriver(CLUSTER,
        PoolSpec.of("owner").withStrongGuaranteeCpu(80),
        PoolSpec.relaxed("r", 10).withRelaxedShareMultiplierLimit(10.0));
    driver.first(Map.of());
    driver.giveVolume("r", 1_000_000);

    PoolAttributes relaxed = driver.after(0, Map.of("owner", PoolLoad.ofDemand(10), "r", PoolLoad.ofDemand(100)))
        .state("r");

    assertThat(relaxed.integralCpu()).isCloseTo(90.0, within(EPS));
  }

  @Test
  void relaxedPoolWithoutVolumeIsGrantedNothingAndChargedNothing() {
    PoolsDriver driver = new PoolsDriver(CLUSTER, PoolSpec.relaxed("r", 10));
    driver.first(Map.of());
    driver.giveVolume("r", 1800);
    // Three times the flow: the grant (L) outpaces the refill.
    assertThat(driver.after(0, Map.of("r", PoolLoad.ofDemand(100))).state("r").integralCpu())
        .isCloseTo(30.0, within(EPS));

    // A long gap spends the whole volume; the pool must then refill from zero, not stay charged
    // for the stale grant (YTsaurus skips such a pool and keeps its L).
    PoolsUpdate empty = driver.after(120, Map.of("r", PoolLoad.ofDemand(100)));
    PoolsUpdate refilled = driver.after(1, Map.of("r", PoolLoad.ofDemand(100)));

    assertThat(empty.state("r").accumulatedResourceVolumeCpu()).isZero();
    assertThat(empty.volumes().get("r").lastIntegralShareRatio()).isZero();
    assertThat(refilled.state("r").accumulatedResourceVolumeCpu()).isCloseTo(10.0, within(EPS));
  }

  @Test
  void restIsSharedByWeightAboveTheGuarantees() {
    PoolsDriver driver = new PoolsDriver(CLUSTER,
        PoolSpec.of("a").withStrongGuaranteeCpu(40),
        PoolSpec.of("b").withWeight(2),
        PoolSpec.of("c"));
    Map<String, PoolLoad> loads = Map.of(
        "a", PoolLoad.ofDemand(100), "b", PoolLoad.ofDemand(100), "c", PoolLoad.ofDemand(100));

    PoolsUpdate update = driver.first(loads);

    // 60 cores left after a's 40, split 1:2:1.
    assertThat(update.state("a").fairShareCpu()).isCloseTo(55.0, within(EPS));
    assertThat(update.state("a").weightProportionalCpu()).isCloseTo(15.0, within(EPS));
    assertThat(update.state("b").fairShareCpu()).isCloseTo(30.0, within(EPS));
    assertThat(update.state("c").fairShareCpu()).isCloseTo(15.0, within(EPS));
  }

  @Test
  void poolBelowItsWeightedShareKeepsItsDemandAndTheOthersSplitTheRest() {
    PoolsDriver driver = new PoolsDriver(CLUSTER, PoolSpec.of("small"), PoolSpec.of("x"), PoolSpec.of("y"));

    PoolsUpdate update = driver.first(Map.of(
        "small", PoolLoad.ofDemand(10), "x", PoolLoad.ofDemand(100), "y", PoolLoad.ofDemand(100)));

    assertThat(update.state("small").fairShareCpu()).isCloseTo(10.0, within(EPS));
    assertThat(update.state("x").fairShareCpu()).isCloseTo(45.0, within(EPS));
    assertThat(update.state("y").fairShareCpu()).isCloseTo(45.0, within(EPS));
  }

  @Test
  void limitCapsTheFairShareAndTheStrongGuarantee() {
    PoolsDriver driver = new PoolsDriver(CLUSTER,
        PoolSpec.of("capped").withStrongGuaranteeCpu(50).withLimitCpu(30.0), PoolSpec.of("other"));

    PoolsUpdate update = driver.first(Map.of("capped", PoolLoad.ofDemand(100), "other", PoolLoad.ofDemand(100)));

    assertThat(update.state("capped").strongCpu()).isCloseTo(30.0, within(EPS));
    assertThat(update.state("capped").fairShareCpu()).isCloseTo(30.0, within(EPS));
    assertThat(update.state("other").fairShareCpu()).isCloseTo(70.0, within(EPS));
    assertThat(update.warnings()).anyMatch(w -> w.contains("exceeds limit_cpu"));
  }

  @Test
  void unconfiguredPoolWithTasksCompetesAsAnEphemeralPool() {
    PoolsDriver driver = new PoolsDriver(CLUSTER, PoolSpec.of("known"));

    PoolsUpdate update = driver.first(Map.of("known", PoolLoad.ofDemand(100), "stray", PoolLoad.ofDemand(100)));

    assertThat(update.state("stray").fairShareCpu()).isCloseTo(50.0, within(EPS));
    assertThat(update.capRatioByPool()).containsKey("stray");
    assertThat(update.warnings()).anyMatch(w -> w.contains("'stray'") && w.contains("ephemeral"));
  }

  @Test
  void overcommittedPoolScalesItsTasksDownToItsFairShare() {
    PoolsDriver driver = new PoolsDriver(CLUSTER,
        PoolSpec.of("guaranteed").withStrongGuaranteeCpu(60), PoolSpec.of("greedy"));

    // Σ demand 160 > 100. Guaranteed: 60 strong + 20 by weight; greedy: the other 20, a quarter
    // of its tasks' soft limits.
    PoolsUpdate update = driver.first(Map.of(
        "guaranteed", new PoolLoad(80, 50), "greedy", new PoolLoad(80, 80)));

    assertThat(update.overcommitted()).isTrue();
    assertThat(update.state("guaranteed").fairShareCpu()).isCloseTo(80.0, within(EPS));
    assertThat(update.state("greedy").fairShareCpu()).isCloseTo(20.0, within(EPS));
    assertThat(update.capRatioByPool().get("greedy")).isCloseTo(0.25, within(EPS));
    assertThat(update.capRatioByPool().get("guaranteed")).isEqualTo(1.0);
    assertThat(PoolCaps.effectiveLimitCpu(4.0, update.capRatioByPool().get("greedy"))).isCloseTo(1.0, within(EPS));
  }

  @Test
  void noPoolIsCappedWhileTheClusterHasRoomForAllDemand() {
    PoolsDriver driver = new PoolsDriver(CLUSTER, PoolSpec.of("a").withLimitCpu(10.0));

    PoolsUpdate update = driver.first(Map.of("a", PoolLoad.ofDemand(50)));

    assertThat(update.overcommitted()).isFalse();
    assertThat(update.state("a").fairShareCpu()).isCloseTo(10.0, within(EPS));
    assertThat(update.capRatioByPool().get("a")).isEqualTo(1.0);
  }

  @Test
  void reportsTheRatiosAndCapacityOfAnIntegralPool() {
    PoolsDriver driver = new PoolsDriver(PoolClusterSettings.defaults(2000), PoolSpec.burst("prod", 1000, 2000));

    PoolAttributes prod = driver.first(Map.of()).state("prod");

    assertThat(prod.specifiedResourceFlowRatio()).isCloseTo(0.5, within(EPS));
    assertThat(prod.totalResourceFlowRatio()).isCloseTo(0.5, within(EPS));
    assertThat(prod.specifiedBurstRatio()).isCloseTo(1.0, within(EPS));
    assertThat(prod.totalBurstRatio()).isCloseTo(1.0, within(EPS));
    assertThat(prod.integralPoolCapacity()).isCloseTo(0.5 * 86_400, within(EPS));
    assertThat(prod.estimatedBurstUsageDurationSeconds()).isZero();
  }

  @Test
  void noBurstDurationWhenTheBurstIsNotAboveTheFlow() {
    PoolsDriver driver = new PoolsDriver(CLUSTER, PoolSpec.burst("b", 10, 10.005), PoolSpec.relaxed("r", 10));

    PoolsUpdate update = driver.first(Map.of());

    assertThat(update.state("b").estimatedBurstUsageDurationSeconds()).isNull();
    assertThat(update.state("r").estimatedBurstUsageDurationSeconds()).isNull();
  }

  @Test
  void restartFromStoredStateContinuesExactlyAsAnUninterruptedRun() {
    PoolSpec[] pools = {PoolSpec.burst("b", 20, 60), PoolSpec.relaxed("r", 30), PoolSpec.of("n")};
    List<Map<String, PoolLoad>> loads = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      loads.add(Map.of(
          "b", PoolLoad.ofDemand(i % 50 < 20 ? 70 : 0),
          "r", PoolLoad.ofDemand(40 + (i * 7) % 30),
          "n", PoolLoad.ofDemand(i % 3 == 0 ? 50 : 10)));
    }
    PoolsDriver uninterrupted = new PoolsDriver(CLUSTER, pools);
    List<PoolsUpdate> expected = new ArrayList<>();
    for (Map<String, PoolLoad> load : loads) {
      expected.add(uninterrupted.after(5, load));
    }

    IntegralPools engine = new IntegralPools();
    Map<String, PoolVolumeState> stored = new HashMap<>();
    List<PoolsUpdate> actual = new ArrayList<>();
    for (int i = 0; i < loads.size(); i++) {
      if (i == 117) {
        // What a changelog restore gives back: equal values, new objects.
        Map<String, PoolVolumeState> restored = new HashMap<>();
        stored.forEach((pool, v) -> restored.put(pool,
            new PoolVolumeState(v.accumulatedResourceVolumeCpu(), v.lastIntegralShareRatio(), v.lastUpdateMs())));
        stored = restored;
        engine = new IntegralPools();
      }
      PoolsUpdate update = engine.update(new PoolsPeriod(
          PoolsDriver.START_MS + 5_000L * i, CLUSTER, List.of(pools), loads.get(i), stored));
      stored = new HashMap<>(update.volumes());
      actual.add(update);
    }

    assertThat(actual).isEqualTo(expected);
  }

  @Test
  void invalidPoolIsRefusedWithEveryProblemNamed() {
    IntegralPools engine = new IntegralPools();
    PoolsPeriod period = new PoolsPeriod(0, CLUSTER,
        List.of(PoolSpec.relaxed("r", -1).withBurstGuaranteeCpu(5).withParent("root")), Map.of(), Map.of());

    assertThatThrownBy(() -> engine.update(period))
        .isInstanceOf(InvalidPoolSpecException.class)
        .hasMessageContaining("parent must be null")
        .hasMessageContaining("resource_flow_cpu must be a finite number >= 0, got -1.0")
        .hasMessageContaining("burst_guarantee_cpu cannot be set on a RELAXED pool");
  }
}
