package io.quotaflow.streams.engine.cpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The YTsaurus job CPU monitor (DESIGN section 1) as a pure function of a task's state, its
 * settings, its hard limit and one sample. Time is the sample's ts_ms; no clock is read, so the
 * same samples in the same order always give the same decisions.
 *
 * <p>Stateless and thread-safe: a processor holds one instance and stores {@link MonitorState}
 * per task.
 */
public final class JobCpuMonitor {

  private static final double USEC_PER_MS = 1000.0;

  /**
   * Feeds one sample. First applies the hard limit and floor (a changed cpu_limit or
   * min_cpu_limit clamps the soft limit at once, whatever the sample turns out to be), then
   * classifies the sample and, on a tick, measures, votes and decides.
   *
   * @param hardLimitCpu the task's cpu_limit now, cores
   * @throws InvalidSettingsException when hardLimitCpu is negative, NaN or infinite
   */
  public MonitorStep step(MonitorState state, MonitorSettings settings, double hardLimitCpu, CpuReading reading) {
    double softAtStart = state.softLimitCpu();
    MonitorState current = applyLimits(state, settings, hardLimitCpu);
    if (current.firstSampleTsMs() == null) {
      current = current.withFirstSample(reading.tsMs());
    }

    SampleOutcome outcome = classify(current, settings, reading);
    Optional<SoftLimitChange> voteDecision = Optional.empty();
    switch (outcome) {
      case LATE -> current = current.withLateSample();
      case BASELINE -> current = current.withBaseline(reading);
      case TICK -> {
        TickResult tick = tick(current, settings, reading);
        current = tick.state;
        voteDecision = tick.decision;
      }
      default -> {
        // BETWEEN_TICKS and START_DELAY leave the state as it is.
      }
    }
    return new MonitorStep(current, outcome, change(softAtStart, current, voteDecision));
  }

  /**
   * Feeds one sample taken while the task was frozen (DESIGN section 1). A frozen task uses no CPU
   * because the gate stopped it, not because it needs less, so the sample neither smooths nor
   * votes; the first running sample after it is a new baseline. Waiting for memory thus never
   * costs a task its CPU guarantee. Limits are still applied, as on any sample.
   */
  public MonitorStep frozen(MonitorState state, MonitorSettings settings, double hardLimitCpu, CpuReading reading) {
    double softAtStart = state.softLimitCpu();
    MonitorState current = applyLimits(state, settings, hardLimitCpu);
    if (current.firstSampleTsMs() == null) {
      current = current.withFirstSample(reading.tsMs());
    }
    SampleOutcome outcome;
    if (current.tickCount() > 0 && reading.tsMs() < current.lastTickTsMs()) {
      outcome = SampleOutcome.LATE;
      current = current.withLateSample();
    } else {
      outcome = SampleOutcome.FROZEN;
      current = current.withAwaitingBaseline();
    }
    return new MonitorStep(current, outcome, change(softAtStart, current, Optional.empty()));
  }

  /**
   * Applies a new hard limit or new settings without a sample, for a processor that receives a
   * spec change: the clamped soft limit can be published at once instead of at the next sample.
   */
  public MonitorStep reconfigure(MonitorState state, MonitorSettings settings, double hardLimitCpu) {
    MonitorState current = applyLimits(state, settings, hardLimitCpu);
    return new MonitorStep(current, SampleOutcome.NO_SAMPLE,
        change(state.softLimitCpu(), current, Optional.empty()));
  }

  private static MonitorState applyLimits(MonitorState state, MonitorSettings settings, double hardLimitCpu) {
    MonitorState.requireHardLimit(hardLimitCpu);
    double floorCpu = settings.floorCpu(hardLimitCpu);
    double softCpu = Math.min(Math.max(state.softLimitCpu(), floorCpu), hardLimitCpu);
    if (hardLimitCpu == state.hardLimitCpu() && softCpu == state.softLimitCpu()) {
      return state;
    }
    return state.withLimits(hardLimitCpu, softCpu);
  }

  private static SampleOutcome classify(MonitorState state, MonitorSettings settings, CpuReading reading) {
    long tsMs = reading.tsMs();
    if (state.tickCount() == 0) {
      // YTsaurus starts when now >= start + start_delay: the boundary sample is tick 1.
      // A sample older than the first one also counts as within the delay.
      return tsMs - state.firstSampleTsMs() < settings.startDelayMs()
          ? SampleOutcome.START_DELAY
          : SampleOutcome.TICK;
    }
    if (tsMs < state.lastTickTsMs()) {
      return SampleOutcome.LATE;
    }
    if (state.awaitingBaseline()) {
      return SampleOutcome.BASELINE;
    }
    return tsMs - state.lastTickTsMs() >= minTickIntervalMs(settings.checkPeriodMs())
        ? SampleOutcome.TICK
        : SampleOutcome.BETWEEN_TICKS;
  }

  /**
   * ceil(0.9 x period) in exact integer arithmetic (p - floor(p/10) equals it for every p >= 0),
   * so that a sample exactly 900 ms after the last tick is a tick for the default period. At
   * least 1 ms: a zero interval would make the usage 0/0.
   */
  static long minTickIntervalMs(long checkPeriodMs) {
    return Math.max(1, checkPeriodMs - checkPeriodMs / 10);
  }

  private record TickResult(MonitorState state, Optional<SoftLimitChange> decision) {
  }

  private static TickResult tick(MonitorState state, MonitorSettings settings, CpuReading reading) {
    if (state.tickCount() == 0) {
      return new TickResult(state.withTick(reading, null, state.votes(), state.softLimitCpu()),
          Optional.empty());
    }
    double smoothedCpu = smoothed(state, settings, reading);
    double softCpu = state.softLimitCpu();

    List<Vote> window = new ArrayList<>(state.votes());
    window.add(vote(smoothedCpu, softCpu, settings));
    // A spec may shrink the window; the oldest votes beyond the new size go first.
    while (window.size() > settings.voteWindowSize()) {
      window.remove(0);
    }

    Optional<SoftLimitChange> decision = Optional.empty();
    if (window.size() == settings.voteWindowSize()) {
      int sum = 0;
      for (Vote v : window) {
        sum += v.value();
      }
      double candidateCpu = softCpu;
      SoftLimitReason reason = null;
      if (sum > settings.voteDecisionThreshold()) {
        candidateCpu = Math.min(softCpu * settings.increaseCoefficient(), state.hardLimitCpu());
        reason = SoftLimitReason.INCREASE;
      } else if (sum < -settings.voteDecisionThreshold()) {
        candidateCpu = Math.max(softCpu * settings.decreaseCoefficient(),
            settings.floorCpu(state.hardLimitCpu()));
        reason = SoftLimitReason.DECREASE;
      }
      if (reason != null) {
        // Cleared even when the candidate equals the soft limit (already at hard or
        // floor), as YTsaurus does: the next decision needs a full fresh window.
        window.clear();
        if (candidateCpu != softCpu) {
          decision = Optional.of(new SoftLimitChange(softCpu, candidateCpu, reason, sum));
          softCpu = candidateCpu;
        }
      } else {
        window.remove(0);
      }
    }
    return new TickResult(state.withTick(reading, smoothedCpu, window, softCpu), decision);
  }

  /**
   * Tick 2 starts the average at the hard limit and drops its own measurement, exactly as
   * YTsaurus does; from tick 3 the usage since the previous tick enters the average.
   */
  private static double smoothed(MonitorState state, MonitorSettings settings, CpuReading reading) {
    if (state.smoothedUsageCpu() == null) {
      return state.hardLimitCpu();
    }
    double usageCpu = usageCpu(state, reading);
    double a = settings.smoothingFactor();
    return a * usageCpu + (1 - a) * state.smoothedUsageCpu();
  }

  /**
   * Cores used since the last tick. A counter that went backwards (a recreated cgroup) gives
   * 0, as YTsaurus's saturating duration subtraction does. The interval is at least 1 ms
   * (see {@link #minTickIntervalMs}) and both counters are non-negative, so this is finite.
   */
  private static double usageCpu(MonitorState state, CpuReading reading) {
    long deltaUsec = Math.max(0, reading.cpuUsageUsec() - state.lastTickCpuUsageUsec());
    double intervalUsec = (reading.tsMs() - state.lastTickTsMs()) * USEC_PER_MS;
    return deltaUsec / intervalUsec;
  }

  /**
   * Strict comparisons, lower bound first (it wins when the bounds cross). With a soft limit of
   * 0 the ratio is NaN (votes KEEP) or infinite (votes INCREASE, which cannot move a soft limit
   * capped at a hard limit of 0); neither value is stored.
   */
  static Vote vote(double smoothedCpu, double softLimitCpu, MonitorSettings settings) {
    double ratio = smoothedCpu / softLimitCpu;
    if (ratio < settings.relativeLowerBound()) {
      return Vote.DECREASE;
    }
    if (ratio > settings.relativeUpperBound()) {
      return Vote.INCREASE;
    }
    return Vote.KEEP;
  }

  /** One change per step, from the soft limit before it to the one after it. */
  private static Optional<SoftLimitChange> change(double softAtStart, MonitorState end,
                          Optional<SoftLimitChange> voteDecision) {
    if (end.softLimitCpu() == softAtStart) {
      return Optional.empty();
    }
    SoftLimitReason reason = voteDecision.map(SoftLimitChange::reason).orElse(SoftLimitReason.CLAMPED);
    int votesSum = voteDecision.map(SoftLimitChange::votesSum).orElse(end.votesSum());
    return Optional.of(new SoftLimitChange(softAtStart, end.softLimitCpu(), reason, votesSum));
  }
}
