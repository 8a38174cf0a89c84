package io.quotaflow.streams.engine.cpu;

import java.util.Objects;
import java.util.Optional;

/**
 * The result of one monitor step: the state to store, what happened to the sample, and the
 * soft-limit change to publish, if any.
 */
public record MonitorStep(MonitorState state, SampleOutcome outcome, Optional<SoftLimitChange> change) {

  public MonitorStep {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(change, "change");
  }

  public boolean isTick() {
    return outcome == SampleOutcome.TICK;
  }

  public boolean isLate() {
    return outcome == SampleOutcome.LATE;
  }

  public boolean softLimitChanged() {
    return change.isPresent();
  }
}
