package io.quotaflow.enforcer;

import io.quotaflow.cgroups.CgroupCpuWrite;

/** What the enforcer does about one decision: the output of {@link DecisionPlanner}. */
public sealed interface Step {

  /** Nothing written and nothing reported. */
  record Skip(SkipReason reason) implements Step {}

  /** Read-only: the group's current values are read and the decision is reported as DRY_RUN. */
  record Preview() implements Step {}

  /** Write the CPU settings, read them back and report APPLIED or UNCHANGED. */
  record WriteCpu(CgroupCpuWrite settings) implements Step {}

  /** Freeze the group (or renew this enforcer's freeze of it) until {@code expiresAtMs}. */
  record Freeze(long expiresAtMs) implements Step {}

  /** Thaw a group this enforcer froze. */
  record Thaw() implements Step {}

  /** A THAW for a group this enforcer did not freeze: its state is read and reported, never changed. */
  record LeaveAlone() implements Step {}

  /** Why a decision was skipped; a tag of the skipped metric. */
  enum SkipReason {
    /** {@code apply=false}: the task is observed only. */
    NOT_APPLIED,
    /** A FREEZE whose lease already ran out (on start: its record is older than its lease). */
    LEASE_OVER
  }
}
