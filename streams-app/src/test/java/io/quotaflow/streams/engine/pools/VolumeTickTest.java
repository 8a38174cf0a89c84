package io.quotaflow.streams.engine.pools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VolumeTickTest {

  private static final double EPS = 1e-9;

  @Test
  void refillsByFlowAndChargesThePreviousGrant() {
    // 100 cores, flow 0.1, granted 0.3 last time, 10 s: +100 −300.
    assertThat(VolumeTick.next(1000, 0.3, 10, 100, 0.1, 8640)).isCloseTo(800.0, within(EPS));
  }

  @Test
  void neverGoesBelowZero() {
    assertThat(VolumeTick.next(100, 1.0, 10, 100, 0.1, 8640)).isZero();
  }

  @Test
  void stopsGrowingAtFlowTimesSaturationPeriod() {
    // Capacity 0.1 · 86400 share·s on 100 cores = 864,000 cpu·s.
    assertThat(VolumeTick.next(863_990, 0.0, 10, 100, 0.1, 8640)).isCloseTo(864_000.0, within(EPS));
  }

  @Test
  void volumeAboveALoweredCapacityIsKeptButCannotGrow() {
    assertThat(VolumeTick.next(2_000_000, 0.0, 10, 100, 0.1, 8640)).isEqualTo(2_000_000.0);
    assertThat(VolumeTick.next(2_000_000, 0.2, 10, 100, 0.1, 8640)).isCloseTo(1_999_900.0, within(EPS));
  }

  @Test
  void firstUpdateOfAPoolAccruesNothing() {
    PoolsDriver driver = new PoolsDriver(PoolClusterSettings.defaults(100), PoolSpec.relaxed("r", 10));

    PoolsUpdate first = driver.first(Map.of());

    assertThat(first.state("r").accumulatedResourceVolumeCpu()).isZero();
    assertThat(first.volumes().get("r").lastUpdateMs()).isEqualTo(PoolsDriver.START_MS);
    assertThat(driver.after(1, Map.of()).state("r").accumulatedResourceVolumeCpu()).isCloseTo(10.0, within(EPS));
  }

  @Test
  void zeroClusterLeavesVolumesUntouchedAndCapsNothing() {
    IntegralPools engine = new IntegralPools();
    PoolVolumeState before = new PoolVolumeState(500.0, 0.2, PoolsDriver.START_MS);
    PoolsPeriod period = new PoolsPeriod(PoolsDriver.START_MS + 60_000, PoolClusterSettings.defaults(0),
        List.of(PoolSpec.relaxed("r", 10)), Map.of("r", PoolLoad.ofDemand(5)), Map.of("r", before));

    PoolsUpdate update = engine.update(period);

    assertThat(update.volumes().get("r").accumulatedResourceVolumeCpu()).isEqualTo(500.0);
    assertThat(update.volumes().get("r").lastUpdateMs()).isEqualTo(PoolsDriver.START_MS + 60_000);
    assertThat(update.state("r").fairShareCpu()).isZero();
    assertThat(update.capRatioByPool().get("r")).isEqualTo(1.0);
    assertThat(update.warnings()).anyMatch(w -> w.contains("total_cpu is 0"));
  }

  @Test
  void timeGoingBackwardsAccruesNothingAndKeepsTheLatestTime() {
    IntegralPools engine = new IntegralPools();
    PoolVolumeState before = new PoolVolumeState(500.0, 0.0, PoolsDriver.START_MS);
    PoolsPeriod period = new PoolsPeriod(PoolsDriver.START_MS - 60_000, PoolClusterSettings.defaults(100),
        List.of(PoolSpec.relaxed("r", 10)), Map.of(), Map.of("r", before));

    PoolsUpdate update = engine.update(period);

    assertThat(update.volumes().get("r").accumulatedResourceVolumeCpu()).isEqualTo(500.0);
    assertThat(update.volumes().get("r").lastUpdateMs()).isEqualTo(PoolsDriver.START_MS);
  }

  @Test
  void poolIsChargedForWhatItWasGrantedNotWhatItUsed() {
    PoolsDriver driver = new PoolsDriver(PoolClusterSettings.defaults(100), PoolSpec.burst("b", 10, 50));
    driver.first(Map.of());
    driver.giveVolume("b", 100_000);
    // Granted 50 cores at this update; the next tick charges 50 cpu·s per second of it.
    assertThat(driver.after(0, Map.of("b", PoolLoad.ofDemand(50))).state("b").integralCpu()).isCloseTo(50.0, within(EPS));

    PoolAttributes next = driver.after(10, Map.of()).state("b");

    assertThat(next.accumulatedResourceVolumeCpu()).isCloseTo(100_000 + 10 * 10 - 10 * 50, within(EPS));
    assertThat(next.integralCpu()).isZero();
  }

  @Test
  void poolSwitchedToNoneKeepsItsVolumeFrozen() {
    PoolsDriver driver = new PoolsDriver(PoolClusterSettings.defaults(100), PoolSpec.of("p"));
    driver.first(Map.of());
    driver.giveVolume("p", 1234);

    PoolAttributes state = driver.after(60, Map.of("p", PoolLoad.ofDemand(100))).state("p");

    assertThat(state.accumulatedResourceVolumeCpu()).isEqualTo(1234.0);
    assertThat(state.integralCpu()).isZero();
    assertThat(state.fairShareCpu()).isCloseTo(100.0, within(EPS));
  }
}
