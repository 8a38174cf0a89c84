package io.quotaflow.streams.engine.pools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Seed 003's worked example: 60 fair-share·s on a 1000-core cluster is 60,000 cpu·s; an operation
 * on 100 cores uses it in 10 minutes, one on 50 cores in 20, not counting refill (flow 0 here).
 * The engine spends a burst pool's volume at the full rate while it buys at least the demanded
 * share over one smooth period (60 s); the last minute's worth tapers off.
 */
class SeedWorkedExampleTest {

  private static final double T = 1000.0;
  private static final double SEED_VOLUME_CPU_S = 60_000.0;
  private static final PoolClusterSettings CLUSTER = PoolClusterSettings.defaults(T);

  @Test
  void sixtyShareSecondsOnAThousandCoresAreSixtyThousandCpuSeconds() {
    PoolsDriver driver = startedWithSeedVolume(100);

    PoolAttributes pool = driver.after(0, Map.of()).state("burst");

    assertThat(pool.accumulatedResourceRatioVolume()).isCloseTo(60.0, within(1e-9));
    assertThat(pool.accumulatedResourceVolumeCpu()).isCloseTo(60_000.0, within(1e-9));
  }

  @Test
  void burstPoolDrainsVolumeInTenMinutesAtHundredCores() {
    PoolsDriver driver = startedWithSeedVolume(100);
    Map<String, PoolLoad> demand = Map.of("burst", PoolLoad.ofDemand(100));

    PoolAttributes first = driver.after(0, demand).state("burst");
    assertThat(first.estimatedBurstUsageDurationSeconds()).isCloseTo(600.0, within(1e-9));

    double grantedCpuS = 0;
    for (int second = 1; second <= 600; second++) {
      PoolAttributes pool = driver.after(1, demand).state("burst");
      if (pool.accumulatedResourceVolumeCpu() >= 100 * 60) {
        assertThat(pool.integralCpu()).as("full burst at second %d", second).isCloseTo(100.0, within(1e-9));
      }
      grantedCpuS += pool.integralCpu();
    }

    // 54,000 cpu·s at 100 cores, then the last smooth period tapers: over 95% spent in 10 minutes.
    assertThat(driver.volumeCpu("burst")).isBetween(0.0, 0.05 * SEED_VOLUME_CPU_S);
    assertThat(grantedCpuS + first.integralCpu()).isLessThanOrEqualTo(SEED_VOLUME_CPU_S + 1e-6);
  }

  @Test
  void burstPoolDrainsVolumeInTwentyMinutesAtFiftyCores() {
    PoolsDriver driver = startedWithSeedVolume(100);
    Map<String, PoolLoad> demand = Map.of("burst", PoolLoad.ofDemand(50));
    driver.after(0, demand);

    for (int second = 1; second <= 600; second++) {
      driver.after(1, demand);
    }
    assertThat(driver.volumeCpu("burst")).isCloseTo(SEED_VOLUME_CPU_S / 2, within(1e-6));

    for (int second = 601; second <= 1200; second++) {
      driver.after(1, demand);
    }
    assertThat(driver.volumeCpu("burst")).isBetween(0.0, 0.05 * SEED_VOLUME_CPU_S);
  }

  @Test
  void everyCpuSecondGrantedIsChargedToTheVolume() {
    PoolsDriver driver = startedWithSeedVolume(100);
    Map<String, PoolLoad> demand = Map.of("burst", PoolLoad.ofDemand(100));

    double grantedCpuS = 0;
    for (int second = 0; second < 3600; second++) {
      grantedCpuS += driver.after(second == 0 ? 0 : 1, demand).state("burst").integralCpu();
    }
    double stillOwedCpuS = driver.after(1, Map.of()).state("burst").integralCpu();

    assertThat(stillOwedCpuS).isZero();
    assertThat(grantedCpuS + driver.volumeCpu("burst")).isCloseTo(SEED_VOLUME_CPU_S, within(1e-6));
  }

  @Test
  void halfADayOfFlowLastsTwelveHoursAtTwiceTheFlowWithRefill() {
    PoolsDriver driver = new PoolsDriver(PoolClusterSettings.defaults(2000), PoolSpec.burst("burst", 1000, 2000));
    driver.first(Map.of());
    driver.giveVolume("burst", 1000.0 * 12 * 3600);

    PoolAttributes pool = driver.after(0, Map.of()).state("burst");

    assertThat(pool.estimatedBurstUsageDurationSeconds()).isCloseTo(12 * 3600.0, within(1e-6));
  }

  private static PoolsDriver startedWithSeedVolume(double burstCpu) {
    PoolsDriver driver = new PoolsDriver(CLUSTER, PoolSpec.burst("burst", 0, burstCpu));
    driver.first(Map.of());
    driver.giveVolume("burst", SEED_VOLUME_CPU_S);
    return driver;
  }
}
