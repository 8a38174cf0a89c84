package io.quotaflow.streams.engine.cpu;

import java.util.List;

/**
 * Everything the job CPU monitor remembers about one task: an immutable value a processor keeps
 * in its store (the topology maps it to the Avro record MonitorStateRecord). The constructor
 * enforces the invariants, so NaN or infinity can enter neither through a step nor through a stored value.
 *
 * @param hardLimitCpu         the hard limit the last step was given, cores (to detect a change)
 * @param softLimitCpu         the monitor's current_cpu_limit, cores, within [0, hard]
 * @param firstSampleTsMs      ts of the task's first sample, the start of start_delay; null
 *                             before any sample
 * @param tickCount            ticks so far; tick 1 is the baseline, votes start at tick 2
 * @param lastTickTsMs         ts of the last tick (0 before tick 1)
 * @param lastTickCpuUsageUsec cumulative CPU counter at the last tick (0 before tick 1)
 * @param smoothedUsageCpu     smoothed usage, cores; null before tick 2
 * @param votes                the vote window, oldest first
 * @param lateSampleCount      samples dropped because they were older than the last tick
 * @param awaitingBaseline     the task was frozen since the last tick: its next running sample is a
 *                             new baseline, so the time it spent frozen is neither measured nor voted on
 */
public record MonitorState(
    double hardLimitCpu,
    double softLimitCpu,
    Long firstSampleTsMs,
    long tickCount,
    long lastTickTsMs,
    long lastTickCpuUsageUsec,
    Double smoothedUsageCpu,
    List<Vote> votes,
    long lateSampleCount,
    boolean awaitingBaseline) {

  public MonitorState {
    requireHardLimit(hardLimitCpu);
    if (!(0 <= softLimitCpu && softLimitCpu <= hardLimitCpu)) {
      throw new IllegalArgumentException(
          "soft_limit_cpu must be in [0, hard_limit_cpu = " + hardLimitCpu + "], was " + softLimitCpu);
    }
    if (firstSampleTsMs != null && firstSampleTsMs < 0) {
      throw new IllegalArgumentException("first_sample_ts_ms must be >= 0, was " + firstSampleTsMs);
    }
    if (tickCount < 0 || lastTickTsMs < 0 || lastTickCpuUsageUsec < 0 || lateSampleCount < 0) {
      throw new IllegalArgumentException("tick_count, last_tick_ts_ms, last_tick_cpu_usage_usec and "
          + "late_sample_count must be >= 0, were " + tickCount + ", " + lastTickTsMs + ", "
          + lastTickCpuUsageUsec + ", " + lateSampleCount);
    }
    if (tickCount > 0 && firstSampleTsMs == null) {
      throw new IllegalArgumentException("a state with ticks must know its first sample");
    }
    if ((tickCount >= 2) != (smoothedUsageCpu != null)) {
      throw new IllegalArgumentException("smoothed_usage_cpu is present exactly from tick 2, but tick_count is "
          + tickCount + " and smoothed_usage_cpu " + smoothedUsageCpu);
    }
    if (smoothedUsageCpu != null && !(smoothedUsageCpu >= 0 && Double.isFinite(smoothedUsageCpu))) {
      throw new IllegalArgumentException("smoothed_usage_cpu must be finite and >= 0, was " + smoothedUsageCpu);
    }
    votes = List.copyOf(votes);
  }

  /** A task not yet sampled: the soft limit starts at the hard limit. */
  public static MonitorState initial(double hardLimitCpu) {
    requireHardLimit(hardLimitCpu);
    return new MonitorState(hardLimitCpu, hardLimitCpu, null, 0, 0, 0, null, List.of(), 0, false);
  }

  /** Sum of the votes in the window (what CpuDecision.votes_sum reports between decisions). */
  public int votesSum() {
    int sum = 0;
    for (Vote vote : votes) {
      sum += vote.value();
    }
    return sum;
  }

  static void requireHardLimit(double hardLimitCpu) {
    if (!(hardLimitCpu >= 0 && Double.isFinite(hardLimitCpu))) {
      throw new InvalidSettingsException(
          List.of("hard_limit_cpu (cpu_limit) must be finite and >= 0, was " + hardLimitCpu));
    }
  }

  MonitorState withLimits(double newHardLimitCpu, double newSoftLimitCpu) {
    return new MonitorState(newHardLimitCpu, newSoftLimitCpu, firstSampleTsMs, tickCount, lastTickTsMs,
        lastTickCpuUsageUsec, smoothedUsageCpu, votes, lateSampleCount, awaitingBaseline);
  }

  MonitorState withFirstSample(long tsMs) {
    return new MonitorState(hardLimitCpu, softLimitCpu, tsMs, tickCount, lastTickTsMs,
        lastTickCpuUsageUsec, smoothedUsageCpu, votes, lateSampleCount, awaitingBaseline);
  }

  MonitorState withLateSample() {
    return new MonitorState(hardLimitCpu, softLimitCpu, firstSampleTsMs, tickCount, lastTickTsMs,
        lastTickCpuUsageUsec, smoothedUsageCpu, votes, lateSampleCount + 1, awaitingBaseline);
  }

  MonitorState withAwaitingBaseline() {
    return new MonitorState(hardLimitCpu, softLimitCpu, firstSampleTsMs, tickCount, lastTickTsMs,
        lastTickCpuUsageUsec, smoothedUsageCpu, votes, lateSampleCount, true);
  }

  /** The first running sample after a freeze: the counters restart from it; ticks, average and votes are kept. */
  MonitorState withBaseline(CpuReading reading) {
    return new MonitorState(hardLimitCpu, softLimitCpu, firstSampleTsMs, tickCount, reading.tsMs(),
        reading.cpuUsageUsec(), smoothedUsageCpu, votes, lateSampleCount, false);
  }

  MonitorState withTick(CpuReading reading, Double newSmoothedUsageCpu, List<Vote> newVotes,
              double newSoftLimitCpu) {
    return new MonitorState(hardLimitCpu, newSoftLimitCpu, firstSampleTsMs, tickCount + 1, reading.tsMs(),
        reading.cpuUsageUsec(), newSmoothedUsageCpu, newVotes, lateSampleCount, false);
  }
}
