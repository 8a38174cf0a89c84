package io.quotaflow.streams.engine.cpu;

/** What the monitor did with a sample. */
public enum SampleOutcome {
  /** The sample was a tick: it moved the baseline and, from tick 2 on, cast a vote. */
  TICK,
  /** Less than 0.9 x check_period after the last tick (or at the same instant): ignored. */
  BETWEEN_TICKS,
  /** Within start_delay_ms of the task's first sample: ignored. */
  START_DELAY,
  /** Older than the last tick: dropped and counted in {@link MonitorState#lateSampleCount()}. */
  LATE,
  /** Taken while the task was frozen: neither a tick nor a vote; the next running sample is a new baseline. */
  FROZEN,
  /** The first running sample after a freeze: it only restarts the counters, as tick 1 does. */
  BASELINE,
  /** No sample: the step only applied a new hard limit or new settings. */
  NO_SAMPLE
}
