package io.quotaflow.streams.engine.cpu;

import static io.quotaflow.streams.engine.cpu.MonitorDriver.START_TS_MS;
import static io.quotaflow.streams.engine.cpu.Vote.DECREASE;
import static io.quotaflow.streams.engine.cpu.Vote.INCREASE;
import static io.quotaflow.streams.engine.cpu.Vote.KEEP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class JobCpuMonitorTest {

  private static final MonitorSettings DEFAULTS = MonitorSettings.DEFAULTS;
  /** Smoothing factor 1: the average is the raw usage, so votes can be steered exactly. */
  private static final MonitorSettings RAW = DEFAULTS.toBuilder().smoothingFactor(1).build();

  /** A task past tick 2 with a chosen soft limit, smoothed usage and vote window. */
  private static MonitorState warmedUp(double hard, double soft, double smoothed, Vote... votes) {
    return new MonitorState(hard, soft, START_TS_MS, 2, START_TS_MS + 1000, 0, smoothed, List.of(votes), 0, false);
  }

  @Nested
  class Ticks {

    @Test
    void firstSampleIsTickOneAndOnlyRecordsTheBaseline() {
      MonitorDriver d = new MonitorDriver(DEFAULTS, 4);
      MonitorStep step = d.sample(START_TS_MS, 7_000_000);

      assertThat(step.outcome()).isEqualTo(SampleOutcome.TICK);
      assertThat(step.change()).isEmpty();
      assertThat(d.state.tickCount()).isEqualTo(1);
      assertThat(d.state.lastTickTsMs()).isEqualTo(START_TS_MS);
      assertThat(d.state.lastTickCpuUsageUsec()).isEqualTo(7_000_000);
      assertThat(d.state.smoothedUsageCpu()).isNull();
      assertThat(d.state.votes()).isEmpty();
      assertThat(d.state.softLimitCpu()).isEqualTo(4.0);
    }

    @Test
    void secondTickDropsTheMeasurementAndStartsTheAverageAtTheHardLimit() {
      MonitorDriver d = new MonitorDriver(DEFAULTS, 4);
      d.first();
      MonitorStep step = d.tick(0.25);

      assertThat(step.outcome()).isEqualTo(SampleOutcome.TICK);
      assertThat(d.state.smoothedUsageCpu()).isEqualTo(4.0);
      // Ratio hard/soft = 1 > 0.9: an increase vote, a no-op while soft == hard.
      assertThat(d.state.votes()).containsExactly(INCREASE);
      assertThat(step.change()).isEmpty();
    }

    @Test
    void laterTicksBlendTheUsageIntoTheAverage() {
      MonitorDriver d = new MonitorDriver(DEFAULTS, 4);
      d.first();
      d.tick(0.25);
      d.tick(2.0);
      assertThat(d.state.smoothedUsageCpu()).isCloseTo(0.1 * 2.0 + 0.9 * 4.0, within(1e-12));
      d.tick(1.0);
      assertThat(d.state.smoothedUsageCpu()).isCloseTo(0.1 * 1.0 + 0.9 * 3.8, within(1e-12));
    }

    @Test
    void tickThresholdIsNinetyPercentOfThePeriodRoundedUp() {
      assertThat(JobCpuMonitor.minTickIntervalMs(1000)).isEqualTo(900);
      assertThat(JobCpuMonitor.minTickIntervalMs(15)).isEqualTo(14); // 13.5 -> 14
      assertThat(JobCpuMonitor.minTickIntervalMs(19)).isEqualTo(18); // 17.1 -> 18
      assertThat(JobCpuMonitor.minTickIntervalMs(10)).isEqualTo(9);
      assertThat(JobCpuMonitor.minTickIntervalMs(1)).isEqualTo(1);
      assertThat(JobCpuMonitor.minTickIntervalMs(0)).isEqualTo(1);
    }

    @Test
    void aSampleNinetyPercentOfThePeriodAfterTheLastTickIsATick() {
      MonitorDriver d = new MonitorDriver(DEFAULTS, 4);
      d.first();
      assertThat(d.sample(START_TS_MS + 899, 0).outcome()).isEqualTo(SampleOutcome.BETWEEN_TICKS);
      assertThat(d.sample(START_TS_MS + 900, 0).outcome()).isEqualTo(SampleOutcome.TICK);
      assertThat(d.state.tickCount()).isEqualTo(2);
    }

    @Test
    void ticksAreCountedFromTheLastTickNotFromTheLastSample() {
      MonitorDriver d = new MonitorDriver(DEFAULTS, 4);
      d.first();
      assertThat(d.sample(START_TS_MS + 500, 0).outcome()).isEqualTo(SampleOutcome.BETWEEN_TICKS);
      assertThat(d.sample(START_TS_MS + 950, 0).outcome()).isEqualTo(SampleOutcome.TICK);
      assertThat(d.sample(START_TS_MS + 1400, 0).outcome()).isEqualTo(SampleOutcome.BETWEEN_TICKS);
      assertThat(d.sample(START_TS_MS + 1849, 0).outcome()).isEqualTo(SampleOutcome.BETWEEN_TICKS);
      assertThat(d.sample(START_TS_MS + 1850, 0).outcome()).isEqualTo(SampleOutcome.TICK);
      assertThat(d.state.lastTickTsMs()).isEqualTo(START_TS_MS + 1850);
    }

    @Test
    void usageIsMeasuredBetweenTicksIgnoringSamplesInBetween() {
      MonitorDriver d = new MonitorDriver(RAW, 4);
      d.sample(START_TS_MS, 0);
      d.sample(START_TS_MS + 1000, 1_000_000);
      d.sample(START_TS_MS + 1500, 9_000_000); // between ticks: its counter is never used
      d.sample(START_TS_MS + 2000, 1_500_000);
      assertThat(d.state.smoothedUsageCpu()).isEqualTo(0.5);
    }

    @Test
    void aGapInSamplesWidensTheIntervalOfTheNextTick() {
      // YTsaurus: a failed read skips a tick and the next good interval spans the gap.
      MonitorDriver d = new MonitorDriver(RAW, 4);
      d.first();
      d.tick(0);
      d.after(3000, 1.0);
      assertThat(d.state.smoothedUsageCpu()).isEqualTo(1.0);
    }

    @Test
    void counterGoingBackwardsCountsAsZeroUsage() {
      MonitorDriver d = new MonitorDriver(RAW, 4);
      d.sample(START_TS_MS, 5_000_000);
      d.sample(START_TS_MS + 1000, 6_000_000);
      d.sample(START_TS_MS + 2000, 1_000_000);
      assertThat(d.state.smoothedUsageCpu()).isEqualTo(0.0);
      assertThat(d.state.votes()).containsExactly(INCREASE, DECREASE);
      // The new, lower counter is the next baseline.
      d.sample(START_TS_MS + 3000, 1_500_000);
      assertThat(d.state.smoothedUsageCpu()).isEqualTo(0.5);
    }

    @Test
    void aSampleAtTheInstantOfTheLastTickIsNeverATickEvenWithAZeroCheckPeriod() {
      // A zero interval would make the usage 0/0 and poison the average (YTsaurus edge case).
      MonitorDriver d = new MonitorDriver(DEFAULTS.toBuilder().checkPeriodMs(0).build(), 4);
      d.sample(START_TS_MS, 0);
      d.sample(START_TS_MS + 1, 1000);
      MonitorStep same = d.sample(START_TS_MS + 1, 5000);

      assertThat(same.outcome()).isEqualTo(SampleOutcome.BETWEEN_TICKS);
      assertThat(d.state.tickCount()).isEqualTo(2);
      assertThat(d.sample(START_TS_MS + 2, 2000).outcome()).isEqualTo(SampleOutcome.TICK);
      assertThat(d.state.smoothedUsageCpu()).isFinite().isCloseTo(0.1 * 1.0 + 0.9 * 4, within(1e-12));
    }

    @Test
    void samplesWithinTheStartDelayAreIgnored() {
      MonitorDriver d = new MonitorDriver(DEFAULTS.toBuilder().startDelayMs(5000).build(), 4);
      assertThat(d.sample(START_TS_MS, 0).outcome()).isEqualTo(SampleOutcome.START_DELAY);
      assertThat(d.state.firstSampleTsMs()).isEqualTo(START_TS_MS);
      assertThat(d.sample(START_TS_MS + 4999, 100).outcome()).isEqualTo(SampleOutcome.START_DELAY);
      assertThat(d.state.tickCount()).isZero();

      assertThat(d.sample(START_TS_MS + 5000, 200).outcome()).isEqualTo(SampleOutcome.TICK);
      assertThat(d.state.tickCount()).isEqualTo(1);
      assertThat(d.state.lastTickCpuUsageUsec()).isEqualTo(200);
      assertThat(d.sample(START_TS_MS + 5900, 300).outcome()).isEqualTo(SampleOutcome.TICK);
    }

    @Test
    void aSampleOlderThanTheFirstDuringTheStartDelayIsIgnoredAndDoesNotMoveTheStart() {
      MonitorDriver d = new MonitorDriver(DEFAULTS.toBuilder().startDelayMs(5000).build(), 4);
      d.sample(START_TS_MS, 0);
      assertThat(d.sample(START_TS_MS - 100, 0).outcome()).isEqualTo(SampleOutcome.START_DELAY);
      assertThat(d.state.firstSampleTsMs()).isEqualTo(START_TS_MS);
    }

    @Test
    void aLateSampleIsDroppedAndCountedNotAnError() {
      MonitorDriver d = new MonitorDriver(DEFAULTS, 4);
      d.first();
      d.tick(1.0);
      MonitorState before = d.state;

      MonitorStep late = d.sample(START_TS_MS + 999, 123);

      assertThat(late.outcome()).isEqualTo(SampleOutcome.LATE);
      assertThat(late.isLate()).isTrue();
      assertThat(late.change()).isEmpty();
      assertThat(d.state.lateSampleCount()).isEqualTo(1);
      assertThat(d.state).isEqualTo(new MonitorState(before.hardLimitCpu(), before.softLimitCpu(),
          before.firstSampleTsMs(), before.tickCount(), before.lastTickTsMs(),
          before.lastTickCpuUsageUsec(), before.smoothedUsageCpu(), before.votes(), 1, false));
    }

    @Test
    void aSampleAtTheTimeOfTheLastTickIsNotLate() {
      MonitorDriver d = new MonitorDriver(DEFAULTS, 4);
      d.first();
      assertThat(d.sample(START_TS_MS, 0).outcome()).isEqualTo(SampleOutcome.BETWEEN_TICKS);
      assertThat(d.state.lateSampleCount()).isZero();
    }
  }

  @Nested
  class Freezing {

    @Test
    void frozenSamplesNeitherSmoothNorVoteAndTheFirstRunningSampleIsANewBaseline() {
      MonitorDriver d = new MonitorDriver(RAW, 2);
      d.first();
      d.ticks(3, 1.0);
      MonitorState before = d.state;

      for (int i = 0; i < 120; i++) {
        assertThat(d.frozen(1000).outcome()).isEqualTo(SampleOutcome.FROZEN);
      }
      assertThat(d.state.tickCount()).isEqualTo(before.tickCount());
      assertThat(d.state.smoothedUsageCpu()).isEqualTo(before.smoothedUsageCpu());
      assertThat(d.state.votes()).isEqualTo(before.votes());
      assertThat(d.state.awaitingBaseline()).isTrue();

      // Thawed: 0.3 s later the counter has moved by 0.3 core-seconds; that interval is the baseline, not a tick.
      MonitorStep baseline = d.after(300, 1.0);
      assertThat(baseline.outcome()).isEqualTo(SampleOutcome.BASELINE);
      assertThat(d.state.tickCount()).isEqualTo(before.tickCount());
      assertThat(d.state.lastTickTsMs()).isEqualTo(d.tsMs);
      assertThat(d.state.awaitingBaseline()).isFalse();

      // The next tick measures from the baseline: 1.5 cores, not a little spread over the two frozen minutes.
      d.tick(1.5);
      assertThat(d.state.smoothedUsageCpu()).isCloseTo(1.5, within(1e-9));
      assertThat(d.state.votes()).endsWith(KEEP);
    }

    @Test
    void aFrozenSampleOlderThanTheLastTickIsLate() {
      MonitorDriver d = new MonitorDriver(DEFAULTS, 2);
      d.first();
      d.tick(1.0);
      MonitorStep late = d.frozen(-500);
      assertThat(late.outcome()).isEqualTo(SampleOutcome.LATE);
      assertThat(d.state.awaitingBaseline()).isFalse();
    }

    @Test
    void aTaskFrozenBeforeItsFirstTickStartsWithTickOne() {
      MonitorDriver d = new MonitorDriver(DEFAULTS, 2);
      d.frozen(0);
      assertThat(d.state.tickCount()).isZero();
      MonitorStep first = d.after(1000, 1.0);
      assertThat(first.outcome()).isEqualTo(SampleOutcome.TICK);
      assertThat(d.state.tickCount()).isEqualTo(1);
      assertThat(d.state.awaitingBaseline()).isFalse();
    }
  }

  @Nested
  class Votes {

    @Test
    void equalityWithABoundVotesKeepBecauseComparisonsAreStrict() {
      MonitorDriver d = new MonitorDriver(RAW, 1);
      d.first();
      d.tick(0.5);  // tick 2: smoothed = hard, +1
      d.tick(0.6);  // ratio exactly 0.6: not below the lower bound
      d.tick(0.9);  // ratio exactly 0.9: not above the upper bound
      assertThat(d.state.votes()).containsExactly(INCREASE, KEEP, KEEP);
      d.tick(0.59);
      d.tick(0.91);
      // Five votes summing to 1: no decision, the oldest is dropped.
      assertThat(d.state.votes()).containsExactly(KEEP, KEEP, DECREASE, INCREASE);
    }

    @Test
    void lowerBoundIsTestedFirstWhenTheBoundsCross() {
      MonitorSettings crossed = DEFAULTS.toBuilder().relativeLowerBound(0.9).relativeUpperBound(0.5).build();
      assertThat(JobCpuMonitor.vote(0.7, 1.0, crossed)).isEqualTo(DECREASE);
      assertThat(JobCpuMonitor.vote(0.95, 1.0, crossed)).isEqualTo(INCREASE);
    }

    @Test
    void eachVoteKeepsTheSoftLimitOfItsTick() {
      MonitorDriver d = new MonitorDriver(RAW, 4);
      d.first();
      d.tick(1.0); // +1 (tick 2)
      d.tick(1.0); // 1/4 < 0.6: -1
      d.tick(1.0); // -1
      d.reconfigure(RAW, 1); // soft clamped to 1: the same usage is now a full limit
      d.tick(1.0); // +1
      d.tick(1.0); // +1; window [+1,-1,-1,+1,+1] sums to 1
      // Re-evaluating the old votes at the new soft limit would have made five +1 and
      // cleared the window; frozen votes keep it sliding.
      assertThat(d.state.votes()).containsExactly(DECREASE, DECREASE, INCREASE, INCREASE);
    }

    @Test
    void aSumEqualToTheThresholdDecidesNothingAndSlidesTheWindow() {
      MonitorDriver up = new MonitorDriver(RAW, 4);
      up.first();
      up.tick(1.0); // +1
      up.tick(3.8); // +1
      up.tick(3.8); // +1
      up.tick(3.0); // 0
      MonitorStep fifth = up.tick(3.0); // 0: sum 3, not > 3
      assertThat(fifth.change()).isEmpty();
      assertThat(up.state.votes()).containsExactly(INCREASE, INCREASE, KEEP, KEEP);

      MonitorDriver down = new MonitorDriver(RAW, 4, warmedUp(4, 4, 4));
      down.ticks(3, 1.0);
      List<SoftLimitChange> changes = down.ticks(2, 3.0); // sum -3, not < -3
      assertThat(changes).isEmpty();
      assertThat(down.state.votes()).containsExactly(DECREASE, DECREASE, KEEP, KEEP);
    }

    @Test
    void anIncreaseAtTheHardLimitClearsTheWindowWithoutADecision() {
      MonitorDriver d = new MonitorDriver(RAW, 4);
      d.first();
      List<SoftLimitChange> changes = d.ticks(5, 4.0); // ticks 2..6 all +1: sum 5
      assertThat(changes).isEmpty();
      assertThat(d.state.votes()).isEmpty();
      assertThat(d.state.softLimitCpu()).isEqualTo(4.0);
      // The next decision needs a fresh full window.
      assertThat(d.ticks(4, 4.0)).isEmpty();
      assertThat(d.state.votes()).hasSize(4);
    }

    @Test
    void aDecreaseAtTheFloorClearsTheWindowWithoutADecision() {
      MonitorDriver d = new MonitorDriver(RAW, 4, warmedUp(4, 1, 0));
      assertThat(d.ticks(5, 0)).isEmpty();
      assertThat(d.state.votes()).isEmpty();
      assertThat(d.state.softLimitCpu()).isEqualTo(1.0);
    }

    @Test
    void aThresholdAtLeastTheWindowNeverDecides() {
      MonitorSettings unreachable = DEFAULTS.toBuilder().voteWindowSize(5).voteDecisionThreshold(5).build();
      MonitorDriver d = new MonitorDriver(unreachable, 4);
      d.first();
      assertThat(d.ticks(200, 0)).isEmpty();
      assertThat(d.state.softLimitCpu()).isEqualTo(4.0);
    }

    @Test
    void shrinkingTheWindowKeepsOnlyTheNewestVotes() {
      MonitorDriver d = new MonitorDriver(RAW, 4);
      d.first();
      d.tick(1.0); // +1
      d.ticks(3, 3.0); // 0, 0, 0
      assertThat(d.state.votes()).containsExactly(INCREASE, KEEP, KEEP, KEEP);

      d.settings = RAW.toBuilder().voteWindowSize(3).voteDecisionThreshold(1).build();
      MonitorStep step = d.tick(1.0); // -1; newest three: [0, 0, -1], sum -1 not < -1
      assertThat(step.change()).isEmpty();
      assertThat(d.state.votes()).containsExactly(KEEP, DECREASE);
    }
  }

  @Nested
  class Decisions {

    @Test
    void idleTaskWalksDownToTheFloor() {
      MonitorDriver d = new MonitorDriver(DEFAULTS, 4);
      d.first();
      List<SoftLimitChange> changes = d.ticks(299, 0);

      List<Double> expected = new ArrayList<>();
      for (double soft = 4; soft > 1; ) {
        soft = Math.max(soft * 0.97, 1.0);
        expected.add(soft);
      }
      assertThat(expected).hasSize(46);
      assertThat(changes).extracting(SoftLimitChange::softLimitCpu).containsExactlyElementsOf(expected);
      assertThat(changes).extracting(SoftLimitChange::reason).containsOnly(SoftLimitReason.DECREASE);
      assertThat(d.state.softLimitCpu()).isEqualTo(1.0);

      // Tick 2 votes +1 and the average needs ticks 3..6 to fall below 0.6 x soft, so the
      // window first sums to -4 at tick 10; after that, one step per five ticks.
      List<Long> decisionTicks = d.decisionTicks();
      assertThat(decisionTicks.get(0)).isEqualTo(10);
      for (int i = 1; i < decisionTicks.size(); i++) {
        assertThat(decisionTicks.get(i) - decisionTicks.get(i - 1)).isEqualTo(5);
      }
      assertThat(changes.get(0).votesSum()).isEqualTo(-4);
      assertThat(changes.get(1).votesSum()).isEqualTo(-5);
      assertThat(changes.get(0).previousSoftLimitCpu()).isEqualTo(4.0);
    }

    @Test
    void saturatedTaskClimbsBackByFortyFivePercentStepsToTheHardLimit() {
      MonitorDriver d = new MonitorDriver(DEFAULTS, 8);
      d.first();
      d.ticks(400, 0);
      assertThat(d.state.softLimitCpu()).isEqualTo(1.0);

      List<SoftLimitChange> changes = d.ticks(100, 8.0);

      assertThat(changes).extracting(SoftLimitChange::reason).containsOnly(SoftLimitReason.INCREASE);
      assertThat(changes).extracting(SoftLimitChange::softLimitCpu).containsExactly(
          1.45, 1.45 * 1.45, 1.45 * 1.45 * 1.45, 1.45 * 1.45 * 1.45 * 1.45,
          1.45 * 1.45 * 1.45 * 1.45 * 1.45, 8.0);
      assertThat(d.state.softLimitCpu()).isEqualTo(8.0);
    }

    @Test
    void theFloorIsTheSmallerOfMinCpuLimitAndTheHardLimit() {
      MonitorDriver small = new MonitorDriver(DEFAULTS, 0.5);
      small.first();
      assertThat(small.ticks(200, 0)).isEmpty();
      assertThat(small.state.softLimitCpu()).isEqualTo(0.5);

      MonitorDriver low = new MonitorDriver(DEFAULTS.toBuilder().minCpuLimit(0.25).build(), 0.5);
      low.first();
      low.ticks(2000, 0);
      assertThat(low.state.softLimitCpu()).isEqualTo(0.25);
    }

    @Test
    void aZeroHardLimitNeverPoisonsTheState() {
      MonitorDriver d = new MonitorDriver(DEFAULTS, 0);
      d.first();
      d.tick(0);
      // smoothed 0 / soft 0 is NaN: every comparison is false, so the vote is KEEP.
      assertThat(d.state.votes()).containsExactly(KEEP);
      List<SoftLimitChange> changes = new ArrayList<>(d.ticks(10, 0));
      changes.addAll(d.ticks(10, 1.0)); // x / 0 is +inf: INCREASE votes, capped at 0
      assertThat(changes).isEmpty();
      for (MonitorStep step : d.steps) {
        assertThat(step.state().softLimitCpu()).isZero();
        if (step.state().smoothedUsageCpu() != null) {
          assertThat(step.state().smoothedUsageCpu()).isFinite();
        }
      }
    }

    @Test
    void smoothingFactorZeroKeepsTheAverageAtTheHardLimitForever() {
      MonitorDriver d = new MonitorDriver(DEFAULTS.toBuilder().smoothingFactor(0).build(), 4);
      d.first();
      assertThat(d.ticks(100, 0)).isEmpty();
      assertThat(d.state.smoothedUsageCpu()).isEqualTo(4.0);
    }

    @Test
    void theReclaimSwitchDoesNotChangeTheSoftLimitArithmetic() {
      MonitorDriver off = new MonitorDriver(DEFAULTS, 4);
      MonitorDriver on = new MonitorDriver(DEFAULTS.toBuilder().enableCpuReclaim(true).build(), 4);
      for (MonitorDriver d : List.of(off, on)) {
        d.first();
        d.ticks(60, 0.2);
        d.ticks(60, 3.9);
      }
      assertThat(off.decisionTicks()).isNotEmpty();
      assertThat(on.steps).isEqualTo(off.steps);
    }
  }

  @Nested
  class Limits {

    @Test
    void loweringTheHardLimitClampsTheSoftLimitAtOnce() {
      MonitorDriver d = new MonitorDriver(DEFAULTS, 4);
      d.first();
      d.tick(4);
      d.hardLimitCpu = 2;
      MonitorStep step = d.after(100, 4); // not even a tick

      assertThat(step.outcome()).isEqualTo(SampleOutcome.BETWEEN_TICKS);
      assertThat(step.change()).contains(new SoftLimitChange(4, 2, SoftLimitReason.CLAMPED, 1));
      assertThat(d.state.hardLimitCpu()).isEqualTo(2.0);
      assertThat(d.state.softLimitCpu()).isEqualTo(2.0);
    }

    @Test
    void reconfigureClampsWithoutASample() {
      MonitorDriver d = new MonitorDriver(DEFAULTS, 4);
      d.first();
      MonitorStep step = d.reconfigure(DEFAULTS, 3);
      assertThat(step.outcome()).isEqualTo(SampleOutcome.NO_SAMPLE);
      assertThat(step.change()).contains(new SoftLimitChange(4, 3, SoftLimitReason.CLAMPED, 0));
      assertThat(step.state().tickCount()).isEqualTo(1);
    }

    @Test
    void aLateSampleStillAppliesANewHardLimit() {
      MonitorDriver d = new MonitorDriver(DEFAULTS, 4);
      d.first();
      d.tick(4);
      d.hardLimitCpu = 1.5;
      MonitorStep step = d.sample(START_TS_MS - 10, 0);
      assertThat(step.outcome()).isEqualTo(SampleOutcome.LATE);
      assertThat(step.change().map(SoftLimitChange::softLimitCpu)).contains(1.5);
    }

    @Test
    void raisingTheHardLimitLeavesTheSoftLimitToClimbByVotes() {
      MonitorDriver d = new MonitorDriver(DEFAULTS, 4);
      d.first();
      MonitorStep raised = d.reconfigure(DEFAULTS, 8);
      assertThat(raised.change()).isEmpty();
      assertThat(d.state.hardLimitCpu()).isEqualTo(8.0);
      assertThat(d.state.softLimitCpu()).isEqualTo(4.0);

      List<SoftLimitChange> changes = d.ticks(40, 8);
      assertThat(changes).extracting(SoftLimitChange::softLimitCpu).containsExactly(4 * 1.45, 8.0);
    }

    @Test
    void raisingMinCpuLimitLiftsTheSoftLimitToTheNewFloor() {
      MonitorSettings lowFloor = DEFAULTS.toBuilder().minCpuLimit(0.5).build();
      MonitorDriver d = new MonitorDriver(lowFloor, 4, warmedUp(4, 0.5, 0.2));
      MonitorStep step = d.reconfigure(DEFAULTS, 4);
      assertThat(step.change()).contains(new SoftLimitChange(0.5, 1, SoftLimitReason.CLAMPED, 0));
    }

    @Test
    void aDecisionInTheSameStepAsAClampIsReportedOnceFromTheOldSoftLimit() {
      MonitorDriver d = new MonitorDriver(RAW, 4, warmedUp(4, 4, 0, DECREASE, DECREASE, DECREASE, DECREASE));
      d.hardLimitCpu = 2;
      MonitorStep step = d.tick(0);
      assertThat(step.change()).contains(new SoftLimitChange(4, 2 * 0.97, SoftLimitReason.DECREASE, -5));
    }

    @Test
    void anInvalidHardLimitIsRejectedWithItsName() {
      JobCpuMonitor monitor = new JobCpuMonitor();
      MonitorState state = MonitorState.initial(4);
      CpuReading reading = new CpuReading(START_TS_MS, 0);
      for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, -1}) {
        assertThatThrownBy(() -> monitor.step(state, DEFAULTS, bad, reading))
            .isInstanceOf(InvalidSettingsException.class)
            .hasMessageContaining("hard_limit_cpu");
      }
      assertThatThrownBy(() -> MonitorState.initial(Double.NaN)).isInstanceOf(InvalidSettingsException.class);
    }
  }

  @Nested
  class Values {

    @Test
    void initialStateStartsTheSoftLimitAtTheHardLimit() {
      MonitorState state = MonitorState.initial(2.5);
      assertThat(state.softLimitCpu()).isEqualTo(2.5);
      assertThat(state.tickCount()).isZero();
      assertThat(state.firstSampleTsMs()).isNull();
      assertThat(state.smoothedUsageCpu()).isNull();
      assertThat(state.votesSum()).isZero();
    }

    @Test
    void stateRejectsNonFiniteAndOutOfRangeValues() {
      assertThatThrownBy(() -> warmedUp(4, Double.NaN, 1)).hasMessageContaining("soft_limit_cpu");
      assertThatThrownBy(() -> warmedUp(4, 5, 1)).hasMessageContaining("soft_limit_cpu");
      assertThatThrownBy(() -> warmedUp(4, 4, Double.POSITIVE_INFINITY))
          .hasMessageContaining("smoothed_usage_cpu");
      assertThatThrownBy(() -> warmedUp(4, 4, Double.NaN)).hasMessageContaining("smoothed_usage_cpu");
      assertThatThrownBy(() -> warmedUp(Double.POSITIVE_INFINITY, 4, 1))
          .hasMessageContaining("hard_limit_cpu");
      assertThatThrownBy(() -> new MonitorState(4, 4, START_TS_MS, 1, START_TS_MS, 0, 1.0, List.of(), 0, false))
          .hasMessageContaining("exactly from tick 2");
    }

    @Test
    void stateVotesCannotBeChangedFromOutside() {
      List<Vote> votes = new ArrayList<>(List.of(KEEP));
      MonitorState state = new MonitorState(4, 4, START_TS_MS, 2, START_TS_MS, 0, 4.0, votes, 0, false);
      votes.add(INCREASE);
      assertThat(state.votes()).containsExactly(KEEP);
      assertThatThrownBy(() -> state.votes().add(DECREASE)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void readingsRejectNegativeTimesAndCounters() {
      assertThatThrownBy(() -> new CpuReading(-1, 0)).hasMessageContaining("sample.ts_ms");
      assertThatThrownBy(() -> new CpuReading(0, -5)).hasMessageContaining("sample.cpu_usage_usec");
    }
  }
}
