package io.quotaflow.streams.engine.cpu;

import java.util.Collections;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/** Generators shared by the monitor's property tests. */
final class MonitorArbitraries {

  private MonitorArbitraries() {
  }

  /** Any valid settings: every field anywhere in its YTsaurus range, bounds included. */
  static Arbitrary<MonitorSettings> anySettings() {
    return Builders.withBuilder(MonitorSettings::builder)
        .use(Arbitraries.of(true, false)).in(MonitorSettings.Builder::enableCpuReclaim)
        .use(Arbitraries.longs().between(0, 2000)).in(MonitorSettings.Builder::checkPeriodMs)
        .use(Arbitraries.longs().between(0, 3000)).in(MonitorSettings.Builder::startDelayMs)
        .use(Arbitraries.doubles().between(0, 1).ofScale(6)).in(MonitorSettings.Builder::smoothingFactor)
        .use(Arbitraries.doubles().between(0, 1).ofScale(6)).in(MonitorSettings.Builder::relativeUpperBound)
        .use(Arbitraries.doubles().between(0, 1).ofScale(6)).in(MonitorSettings.Builder::relativeLowerBound)
        .use(Arbitraries.doubles().between(1, 2).ofScale(6)).in(MonitorSettings.Builder::increaseCoefficient)
        .use(Arbitraries.doubles().between(0, 1).ofScale(6)).in(MonitorSettings.Builder::decreaseCoefficient)
        .use(Arbitraries.integers().between(1, 8)).in(MonitorSettings.Builder::voteWindowSize)
        .use(Arbitraries.integers().between(1, 8)).in(MonitorSettings.Builder::voteDecisionThreshold)
        .use(Arbitraries.doubles().between(0, 1).ofScale(6)).in(MonitorSettings.Builder::minCpuLimit)
        .build(MonitorSettings.Builder::build);
  }

  /**
   * Valid settings under which decisions fire often: the threshold is below the window, the
   * average moves, the coefficients move the limit and the band between the bounds is not so
   * wide that every vote is KEEP.
   */
  static Arbitrary<MonitorSettings> decisiveSettings() {
    return Builders.withBuilder(MonitorSettings::builder)
        .use(Arbitraries.longs().between(0, 2000)).in(MonitorSettings.Builder::checkPeriodMs)
        .use(Arbitraries.doubles().between(0.05, 1).ofScale(6)).in(MonitorSettings.Builder::smoothingFactor)
        .use(Arbitraries.doubles().between(0.75, 1).ofScale(6)).in(MonitorSettings.Builder::relativeUpperBound)
        .use(Arbitraries.doubles().between(0.2, 0.7).ofScale(6)).in(MonitorSettings.Builder::relativeLowerBound)
        .use(Arbitraries.doubles().between(1.01, 2).ofScale(6)).in(MonitorSettings.Builder::increaseCoefficient)
        .use(Arbitraries.doubles().between(0, 0.99).ofScale(6)).in(MonitorSettings.Builder::decreaseCoefficient)
        .use(Arbitraries.doubles().between(0, 1).ofScale(6)).in(MonitorSettings.Builder::minCpuLimit)
        .build(MonitorSettings.Builder::build)
        .flatMap(s -> Arbitraries.integers().between(2, 8).flatMap(window ->
            Arbitraries.integers().between(1, window - 1).map(threshold -> s.toBuilder()
                .voteWindowSize(window).voteDecisionThreshold(threshold).build())));
  }

  static Arbitrary<Double> hardLimits() {
    return Arbitraries.doubles().between(0, 16).ofScale(6).withSpecialValue(0.0).withSpecialValue(1.0);
  }

  /**
   * One input to a task: a sample dtMs after the clock (negative: a late sample that does not
   * move the clock) during which the task used {@code cores}, possibly with a counter that went
   * backwards, a new hard limit or a new min_cpu_limit.
   */
  record Event(long dtMs, double cores, boolean counterReset, Double newHardLimitCpu, Double newMinCpuLimit) {
  }

  static Arbitrary<Event> events(boolean limitChanges) {
    Arbitrary<Long> dt = Arbitraries.frequencyOf(
        Tuple.of(12, Arbitraries.longs().between(0, 2500)),
        Tuple.of(1, Arbitraries.longs().between(-3000, -1)));
    Arbitrary<Double> cores = Arbitraries.frequencyOf(
        Tuple.of(2, Arbitraries.just(0.0)),
        Tuple.of(3, Arbitraries.doubles().between(0, 20).ofScale(6)));
    Arbitrary<Boolean> reset = Arbitraries.frequency(Tuple.of(1, true), Tuple.of(40, false));
    Arbitrary<Double> hard = hardLimits().injectNull(limitChanges ? 0.95 : 1.0);
    Arbitrary<Double> min = Arbitraries.doubles().between(0, 1).ofScale(6).injectNull(limitChanges ? 0.97 : 1.0);
    return Combinators.combine(dt, cores, reset, hard, min).as(Event::new);
  }

  /**
   * Bursts of steady usage, so smoothed usage can settle and windows can fill with one kind of
   * vote; uniform noise alone rarely lets a decision fire.
   */
  static Arbitrary<List<Event>> steadyBursts() {
    Arbitrary<Double> burstCores = Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.just(0.0)),
        Tuple.of(1, Arbitraries.doubles().between(0, 2).ofScale(6)),
        Tuple.of(1, Arbitraries.doubles().between(0, 20).ofScale(6)));
    Arbitrary<List<Event>> burst = Combinators.combine(
            burstCores,
            Arbitraries.integers().between(1, 60),
            Arbitraries.longs().between(1, 2500))
        .as((cores, n, dtMs) -> Collections.nCopies(n, new Event(dtMs, cores, false, null, null)));
    return burst.list().ofMinSize(1).ofMaxSize(12)
        .map(bursts -> bursts.stream().flatMap(List::stream).toList());
  }
}
