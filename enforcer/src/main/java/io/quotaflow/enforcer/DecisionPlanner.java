package io.quotaflow.enforcer;

/**
 * Decision + enforcement mode + what the enforcer knows about the task → what to do. Pure: no
 * Kafka, no cgroups, no clock (time comes in as an argument), so every rule of docs/enforcer.md is
 * a unit test here and the I/O around it stays thin.
 */
public final class DecisionPlanner {

  private DecisionPlanner() {}

  /** A task's latest CPU decision under {@code mode}. */
  public static Step cpu(CpuIntent intent, Mode mode) {
    if (!intent.apply()) {
      return new Step.Skip(Step.SkipReason.NOT_APPLIED);
    }
    return mode == Mode.ON ? new Step.WriteCpu(intent.settings()) : new Step.Preview();
  }

  /**
   * A task's latest freeze decision under {@code mode}.
   *
   * @param frozenByUs this enforcer froze the group and has not thawed it since (it holds a lease)
   */
  public static Step freeze(FreezeIntent intent, Mode mode, boolean frozenByUs, long nowMs) {
    if (intent.freeze() && !intent.holdsAt(nowMs)) {
      return new Step.Skip(Step.SkipReason.LEASE_OVER);
    }
    if (!intent.freeze() && frozenByUs) {
      // Undoing its own freeze is a release, not a new write: done in every mode, as lease expiry is.
      return new Step.Thaw();
    }
    if (mode != Mode.ON) {
      return new Step.Preview();
    }
    // It only ever thaws what it froze itself: a group frozen by the job system or an operator stays so.
    return intent.freeze() ? new Step.Freeze(intent.expiresAtMs()) : new Step.LeaveAlone();
  }
}
