package io.quotaflow.streams.engine.pools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** The invariants of DESIGN §3 over random flat pools, loads and stored volumes. */
class IntegralPoolsPropertiesTest {

  private static final double REL_EPS = 1e-9;
  private static final long NOW_MS = PoolsDriver.START_MS;

  private final IntegralPools engine = new IntegralPools();

  /** One pool as generated: its spec, its load and the volume it brings from the previous update. */
  record GeneratedPool(PoolSpec spec, PoolLoad load, PoolVolumeState volume) {}

  record Scenario(PoolClusterSettings cluster, List<GeneratedPool> pools) {
    PoolsPeriod period() {
      List<PoolSpec> specs = new ArrayList<>();
      Map<String, PoolLoad> loads = new HashMap<>();
      Map<String, PoolVolumeState> volumes = new HashMap<>();
      for (GeneratedPool pool : pools) {
        specs.add(pool.spec());
        loads.put(pool.spec().pool(), pool.load());
        volumes.put(pool.spec().pool(), pool.volume());
      }
      return new PoolsPeriod(NOW_MS, cluster, specs, loads, volumes);
    }

    double totalCpu() {
      return cluster.totalCpu();
    }
  }

  @Provide
  Arbitrary<Scenario> scenarios() {
    Arbitrary<PoolClusterSettings> clusters = Combinators.combine(
        Arbitraries.doubles().between(1, 5000).ofScale(3),
        Arbitraries.longs().between(60, 86_400),
        Arbitraries.longs().between(1, 300),
        Arbitraries.doubles().between(1, 10))
        .as(PoolClusterSettings::new);
    // Pools are drawn in fractions of the cluster and scaled once T is known (no flatMap: fast).
    return Combinators.combine(clusters, pool().list().ofMinSize(1).ofMaxSize(6))
        .as((cluster, pools) -> new Scenario(cluster, scaled(pools, cluster.totalCpu())));
  }

  private static Arbitrary<GeneratedPool> pool() {
    Arbitrary<Double> fractions = Arbitraries.oneOf(
        Arbitraries.just(0.0), Arbitraries.doubles().between(0, 1), Arbitraries.doubles().between(0, 2));
    Arbitrary<PoolSpec> specs = Combinators.combine(
        Arbitraries.of(GuaranteeType.class),
        fractions, fractions, fractions,
        Arbitraries.doubles().between(0.1, 10),
        Arbitraries.doubles().between(1, 10).injectNull(0.5),
        Arbitraries.doubles().between(0, 2).injectNull(0.7))
        .as((type, strong, flow, burst, weight, multiplier, limit) -> new PoolSpec("p", null,
            strong, weight, type, flow, type == GuaranteeType.BURST ? burst : 0.0,
            type == GuaranteeType.RELAXED ? multiplier : null, limit));
    Arbitrary<PoolLoad> loads = Combinators.combine(fractions, Arbitraries.doubles().between(0, 1))
        .as((demand, usedFraction) -> new PoolLoad(demand, demand * usedFraction));
    // Volume in cluster-days; L as a share; the previous update up to 10 minutes ago, or none.
    Arbitrary<PoolVolumeState> volumes = Combinators.combine(
        Arbitraries.doubles().between(0, 2),
        Arbitraries.doubles().between(0, 1.5),
        Arbitraries.longs().between(0, 600_000).map(ago -> NOW_MS - ago).injectNull(0.1))
        .as(PoolVolumeState::new);
    return Combinators.combine(specs, loads, volumes).as(GeneratedPool::new);
  }

  private static List<GeneratedPool> scaled(List<GeneratedPool> pools, double totalCpu) {
    List<GeneratedPool> scaled = new ArrayList<>();
    for (int i = 0; i < pools.size(); i++) {
      GeneratedPool pool = pools.get(i);
      PoolSpec spec = pool.spec();
      PoolSpec named = new PoolSpec("pool-" + i, null, spec.strongGuaranteeCpu() * totalCpu, spec.weight(),
          spec.guaranteeType(), spec.resourceFlowCpu() * totalCpu, spec.burstGuaranteeCpu() * totalCpu,
          spec.relaxedShareMultiplierLimit(), spec.limitCpu() == null ? null : spec.limitCpu() * totalCpu);
      PoolLoad load = new PoolLoad(pool.load().demandCpu() * totalCpu, pool.load().usageCpu() * totalCpu);
      PoolVolumeState volume = new PoolVolumeState(
          pool.volume().accumulatedResourceVolumeCpu() * totalCpu * 86_400,
          pool.volume().lastIntegralShareRatio(), pool.volume().lastUpdateMs());
      scaled.add(new GeneratedPool(named, load, volume));
    }
    return scaled;
  }

  @Property(tries = 300)
  void volumeStaysWithinZeroAndTheLargerOfOldVolumeAndCapacity(@ForAll("scenarios") Scenario scenario) {
    PoolsUpdate update = engine.update(scenario.period());

    for (GeneratedPool pool : scenario.pools()) {
      PoolAttributes state = update.state(pool.spec().pool());
      double oldVolumeCpu = pool.volume().accumulatedResourceVolumeCpu();
      double capacityCpu = state.integralPoolCapacity() * scenario.totalCpu();
      assertThat(state.accumulatedResourceVolumeCpu())
          .isBetween(0.0, Math.max(oldVolumeCpu, capacityCpu) * (1 + REL_EPS));
    }
  }

  @Property(tries = 300)
  void burstPoolNeverTakesMoreThanItsBurstFromItsVolume(@ForAll("scenarios") Scenario scenario) {
    PoolsUpdate update = engine.update(scenario.period());

    for (GeneratedPool pool : scenario.pools()) {
      PoolAttributes state = update.state(pool.spec().pool());
      assertThat(state.totalBurstRatio()).isLessThanOrEqualTo(state.specifiedBurstRatio());
      if (pool.spec().guaranteeType() == GuaranteeType.BURST) {
        assertThat(state.integralCpu())
            .isLessThanOrEqualTo(state.totalBurstRatio() * scenario.totalCpu() * (1 + REL_EPS));
        assertThat(state.integralCpu()).isLessThanOrEqualTo(pool.spec().burstGuaranteeCpu() * (1 + REL_EPS));
      }
    }
  }

  @Property(tries = 300)
  void relaxedPoolNeverTakesMoreThanMTimesItsFlow(@ForAll("scenarios") Scenario scenario) {
    PoolsUpdate update = engine.update(scenario.period());

    for (GeneratedPool pool : scenario.pools()) {
      PoolSpec spec = pool.spec();
      if (spec.guaranteeType() == GuaranteeType.RELAXED) {
        double multiplier = spec.relaxedShareMultiplierLimit() != null
            ? spec.relaxedShareMultiplierLimit()
            : scenario.cluster().relaxedShareMultiplierLimit();
        assertThat(update.state(spec.pool()).integralCpu())
            .isLessThanOrEqualTo(multiplier * spec.resourceFlowCpu() * (1 + REL_EPS));
      }
    }
  }

  @Property(tries = 300)
  void demandedStrongGuaranteesAreHonoured(@ForAll("scenarios") Scenario scenario) {
    PoolsUpdate update = engine.update(scenario.period());
    double totalCpu = scenario.totalCpu();
    // The overcommit scaling, computed independently: strong (capped by limits) plus burst.
    double committedCpu = 0;
    for (GeneratedPool pool : scenario.pools()) {
      committedCpu += guaranteedStrongCpu(pool.spec(), totalCpu) + pool.spec().burstGuaranteeCpu();
    }
    double scale = Math.min(1.0, totalCpu / committedCpu);

    for (GeneratedPool pool : scenario.pools()) {
      double strongCpu = scale * guaranteedStrongCpu(pool.spec(), totalCpu);
      double demandedCpu = Math.min(pool.load().demandCpu(), limitCpu(pool.spec(), totalCpu));
      PoolAttributes state = update.state(pool.spec().pool());
      assertThat(state.fairShareCpu()).isGreaterThanOrEqualTo(Math.min(strongCpu, demandedCpu) - totalCpu * REL_EPS);
      assertThat(state.strongCpu()).isCloseTo(Math.min(strongCpu, state.fairShareCpu()),
          within(totalCpu * REL_EPS));
    }
  }

  @Property(tries = 300)
  void fairSharesNeverExceedTheClusterAndUseAllOfItUnderContention(@ForAll("scenarios") Scenario scenario) {
    PoolsUpdate update = engine.update(scenario.period());
    double totalCpu = scenario.totalCpu();

    double fairCpu = 0;
    double demandedCpu = 0;
    for (GeneratedPool pool : scenario.pools()) {
      PoolAttributes state = update.state(pool.spec().pool());
      double poolDemandCpu = Math.min(pool.load().demandCpu(), limitCpu(pool.spec(), totalCpu));
      assertThat(state.fairShareCpu()).isBetween(0.0, poolDemandCpu + totalCpu * REL_EPS);
      assertThat(state.strongCpu() + state.integralCpu()).isLessThanOrEqualTo(state.fairShareCpu() + totalCpu * REL_EPS);
      fairCpu += state.fairShareCpu();
      demandedCpu += poolDemandCpu;
    }
    assertThat(fairCpu).isLessThanOrEqualTo(totalCpu * (1 + REL_EPS));
    assertThat(fairCpu).isCloseTo(Math.min(totalCpu, demandedCpu),
        within(totalCpu * 1e-8));
  }

  @Property(tries = 300)
  void cappedTasksOfAPoolNeverAddUpToMoreThanItsFairShareUnderContention(@ForAll("scenarios") Scenario scenario) {
    PoolsUpdate update = engine.update(scenario.period());

    for (GeneratedPool pool : scenario.pools()) {
      String name = pool.spec().pool();
      double ratio = update.capRatioByPool().get(name);
      assertThat(ratio).isBetween(0.0, 1.0);
      double cappedUsageCpu = PoolCaps.effectiveLimitCpu(pool.load().usageCpu(), ratio);
      if (update.overcommitted()) {
        assertThat(cappedUsageCpu)
            .isLessThanOrEqualTo(update.state(name).fairShareCpu() + scenario.totalCpu() * REL_EPS);
      } else {
        assertThat(ratio).isEqualTo(1.0);
      }
    }
  }

  @Property(tries = 200)
  void orderOfThePoolsDoesNotChangeTheResult(@ForAll("scenarios") Scenario scenario, @ForAll long seed) {
    List<GeneratedPool> shuffled = new ArrayList<>(scenario.pools());
    Collections.shuffle(shuffled, new Random(seed));

    PoolsUpdate original = engine.update(scenario.period());
    PoolsUpdate reordered = engine.update(new Scenario(scenario.cluster(), shuffled).period());

    assertThat(reordered).isEqualTo(original);
  }

  @Property(tries = 100)
  void volumeStaysBoundedThroughAnHourOfChangingDemand(
      @ForAll("scenarios") Scenario scenario, @ForAll @IntRange(min = 10, max = 120) int periodS, @ForAll long seed) {
    Random random = new Random(seed);
    List<PoolSpec> specs = scenario.pools().stream().map(GeneratedPool::spec).toList();
    Map<String, PoolVolumeState> volumes = new HashMap<>();
    for (int step = 0; step * periodS < 3600; step++) {
      Map<String, PoolLoad> loads = new HashMap<>();
      for (PoolSpec spec : specs) {
        loads.put(spec.pool(), PoolLoad.ofDemand(random.nextBoolean() ? 0 : random.nextDouble() * scenario.totalCpu()));
      }
      PoolsUpdate update = engine.update(new PoolsPeriod(NOW_MS + step * periodS * 1000L,
          scenario.cluster(), specs, loads, volumes));
      for (PoolAttributes state : update.states()) {
        PoolVolumeState before = volumes.getOrDefault(state.pool(), PoolVolumeState.INITIAL);
        double capacityCpu = state.integralPoolCapacity() * scenario.totalCpu();
        assertThat(state.accumulatedResourceVolumeCpu())
            .isBetween(0.0, Math.max(before.accumulatedResourceVolumeCpu(), capacityCpu) * (1 + REL_EPS));
        // A pool is granted from its volume only what one smooth period of it buys.
        assertThat(state.integralCpu() * scenario.cluster().smoothPeriodS())
            .isLessThanOrEqualTo(state.accumulatedResourceVolumeCpu() * (1 + REL_EPS) + 1e-9);
      }
      volumes = new HashMap<>(update.volumes());
    }
  }

  private static double limitCpu(PoolSpec spec, double totalCpu) {
    return spec.limitCpu() == null ? totalCpu : Math.min(spec.limitCpu(), totalCpu);
  }

  private static double guaranteedStrongCpu(PoolSpec spec, double totalCpu) {
    return Math.min(spec.strongGuaranteeCpu(), limitCpu(spec, totalCpu));
  }
}
