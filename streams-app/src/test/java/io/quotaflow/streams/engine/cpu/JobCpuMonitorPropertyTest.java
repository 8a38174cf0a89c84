package io.quotaflow.streams.engine.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Scale;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.statistics.Statistics;

class JobCpuMonitorPropertyTest {

  @Provide
  Arbitrary<MonitorSettings> anySettings() {
    return MonitorArbitraries.anySettings();
  }

  @Provide
  Arbitrary<MonitorSettings> decisiveSettings() {
    return MonitorArbitraries.decisiveSettings();
  }

  @Provide
  Arbitrary<Double> hardLimits() {
    return MonitorArbitraries.hardLimits();
  }

  @Provide
  Arbitrary<List<MonitorArbitraries.Event>> eventsWithLimitChanges() {
    return MonitorArbitraries.events(true).list().ofMaxSize(300);
  }

  @Provide
  Arbitrary<List<MonitorArbitraries.Event>> steadyBursts() {
    return MonitorArbitraries.steadyBursts();
  }

  @Property(tries = 400)
  void softLimitStaysWithinTheFloorAndTheHardLimit(
      @ForAll("anySettings") MonitorSettings settings,
      @ForAll("hardLimits") double hardLimitCpu,
      @ForAll("eventsWithLimitChanges") List<MonitorArbitraries.Event> events) {
    EventRun run = EventRun.play(settings, hardLimitCpu, events);
    int changes = 0;
    for (EventRun.Played p : run.played) {
      MonitorState state = p.step().state();
      assertThat(state.hardLimitCpu()).isEqualTo(p.hardLimitCpu());
      assertThat(state.softLimitCpu()).isBetween(p.floorCpu(), p.hardLimitCpu());
      if (state.smoothedUsageCpu() != null) {
        assertThat(state.smoothedUsageCpu()).isFinite();
      }
      // A change is reported exactly when the soft limit moved, from where it was.
      assertThat(p.step().change().isPresent()).isEqualTo(state.softLimitCpu() != p.softBefore());
      p.step().change().ifPresent(c -> {
        assertThat(c.previousSoftLimitCpu()).isEqualTo(p.softBefore());
        assertThat(c.softLimitCpu()).isEqualTo(state.softLimitCpu());
      });
      changes += p.step().change().isPresent() ? 1 : 0;
    }
    Statistics.label("soft limit moved").collect(changes > 0);
  }

  @Property(tries = 400)
  void noDecisionComesSoonerThanAFullWindowAfterThePreviousOne(
      @ForAll("decisiveSettings") MonitorSettings settings,
      @ForAll @Scale(6) @DoubleRange(min = 1.5, max = 16) double hardLimitCpu,
      @ForAll("steadyBursts") List<MonitorArbitraries.Event> events) {
    EventRun run = EventRun.play(settings, hardLimitCpu, events);
    List<Long> decisionTicks = new ArrayList<>();
    for (MonitorStep step : run.steps()) {
      if (step.change().isPresent()) {
        assertThat(step.change().get().reason()).isNotEqualTo(SoftLimitReason.CLAMPED);
        assertThat(step.isTick()).isTrue();
        decisionTicks.add(step.state().tickCount());
      }
    }
    int window = settings.voteWindowSize();
    if (!decisionTicks.isEmpty()) {
      // Votes start at tick 2, so a full window first exists at tick window + 1.
      assertThat(decisionTicks.get(0)).isGreaterThanOrEqualTo(window + 1L);
    }
    for (int i = 1; i < decisionTicks.size(); i++) {
      assertThat(decisionTicks.get(i) - decisionTicks.get(i - 1)).isGreaterThanOrEqualTo(window);
    }
    Statistics.label("decisions").collect(Math.min(decisionTicks.size(), 3));
    Statistics.label("decisions").coverage(c -> c.check(3).percentage(p -> p >= 20));
  }

  @Property(tries = 300)
  void idleTaskWalksDownToTheFloorByDecreaseSteps(
      @ForAll @Scale(6) @DoubleRange(min = 0.1, max = 64) double hardLimitCpu,
      @ForAll @Scale(6) @DoubleRange(min = 0.1, max = 1) double minCpuLimit,
      @ForAll @LongRange(min = 1, max = 5000) long checkPeriodMs) {
    MonitorSettings settings = MonitorSettings.DEFAULTS.toBuilder()
        .minCpuLimit(minCpuLimit).checkPeriodMs(checkPeriodMs).build();
    MonitorDriver d = new MonitorDriver(settings, hardLimitCpu);
    d.first();
    // At most ln(0.1/64)/ln(0.97) = 213 steps of 5 ticks, after a short warm-up.
    List<SoftLimitChange> changes = d.ticks(1200, 0);

    double floorCpu = settings.floorCpu(hardLimitCpu);
    for (SoftLimitChange c : changes) {
      assertThat(c.reason()).isEqualTo(SoftLimitReason.DECREASE);
      assertThat(c.softLimitCpu()).isEqualTo(Math.max(c.previousSoftLimitCpu() * 0.97, floorCpu));
    }
    List<Long> ticks = d.decisionTicks();
    for (int i = 1; i < ticks.size(); i++) {
      assertThat(ticks.get(i) - ticks.get(i - 1)).isEqualTo(5);
    }
    assertThat(d.state.softLimitCpu()).isEqualTo(floorCpu);
  }

  @Property(tries = 300)
  void saturatedTaskClimbsBackToTheHardLimitByIncreaseSteps(
      @ForAll @Scale(6) @DoubleRange(min = 1, max = 64) double hardLimitCpu,
      @ForAll @Scale(6) @DoubleRange(min = 0.1, max = 1) double minCpuLimit,
      @ForAll @LongRange(min = 1, max = 5000) long checkPeriodMs) {
    MonitorSettings settings = MonitorSettings.DEFAULTS.toBuilder()
        .minCpuLimit(minCpuLimit).checkPeriodMs(checkPeriodMs).build();
    double floorCpu = settings.floorCpu(hardLimitCpu);
    // A task that sat idle at the floor: the average is near zero and the window is empty.
    MonitorState idle = new MonitorState(hardLimitCpu, floorCpu, MonitorDriver.START_TS_MS, 500,
        MonitorDriver.START_TS_MS + 499 * checkPeriodMs, 0, 0.0, List.of(), 0, false);
    MonitorDriver d = new MonitorDriver(settings, hardLimitCpu, idle);

    List<SoftLimitChange> changes = d.ticks(300, hardLimitCpu);

    for (SoftLimitChange c : changes) {
      assertThat(c.reason()).isEqualTo(SoftLimitReason.INCREASE);
      assertThat(c.softLimitCpu()).isEqualTo(Math.min(c.previousSoftLimitCpu() * 1.45, hardLimitCpu));
    }
    List<Long> ticks = d.decisionTicks();
    for (int i = 1; i < ticks.size(); i++) {
      assertThat(ticks.get(i) - ticks.get(i - 1)).isGreaterThanOrEqualTo(5);
    }
    assertThat(d.state.softLimitCpu()).isEqualTo(hardLimitCpu);
  }

  @Property(tries = 200)
  void theSameSamplesGiveTheSameDecisionsWhateverTheReclaimSwitch(
      @ForAll("anySettings") MonitorSettings settings,
      @ForAll("hardLimits") double hardLimitCpu,
      @ForAll("eventsWithLimitChanges") List<MonitorArbitraries.Event> events) {
    MonitorSettings flipped = settings.toBuilder().enableCpuReclaim(!settings.enableCpuReclaim()).build();
    List<MonitorStep> a = EventRun.play(settings, hardLimitCpu, events).steps();
    List<MonitorStep> b = EventRun.play(flipped, hardLimitCpu, events).steps();
    assertThat(b).isEqualTo(a);
  }
}
