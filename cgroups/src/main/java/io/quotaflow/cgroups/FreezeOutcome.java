package io.quotaflow.cgroups;

/** How a freeze or thaw ended. */
public enum FreezeOutcome {
  /** The state was requested by this call and the kernel reached it. */
  APPLIED,
  /** The kernel was already in (or already moving to and reached) the wanted state; nothing written. */
  UNCHANGED,
  /** The kernel did not report the wanted state in time (e.g. tasks in D state, a frozen ancestor). */
  TIMED_OUT
}
