package io.quotaflow.streams.engine.cpu;

/** Why the soft limit moved. */
public enum SoftLimitReason {
  /** The vote sum exceeded the threshold: soft x increase_coefficient, capped at the hard limit. */
  INCREASE,
  /** The vote sum fell below minus the threshold: soft x decrease_coefficient, at least the floor. */
  DECREASE,
  /** A new hard limit or min_cpu_limit put the soft limit outside [floor, hard]; it was clamped. */
  CLAMPED
}
