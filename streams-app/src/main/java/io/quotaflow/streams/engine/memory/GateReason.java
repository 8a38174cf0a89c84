package io.quotaflow.streams.engine.memory;

/** Why the gate froze or thawed a task; published as the decision's {@code reason}. */
public enum GateReason {
  /** FREEZE, COUNT: the task approached its peak and every slot was held, or others were already waiting. */
  PEAK_SLOT_BUSY,
  /** FREEZE, BUDGET: the task's peak would not fit beside the holders' peaks, or others were already waiting. */
  PEAK_OVER_BUDGET,
  /** FREEZE: the task still waits; a fresh lease so the enforcer does not thaw it by itself. */
  LEASE_RENEWAL,
  /** THAW: the head of the queue got a freed slot (or room in the budget) and now holds it. */
  SLOT_FREED,
  /** THAW: a waiting task's usage fell back to its release ratio, so it no longer needs a slot. */
  PEAK_PASSED,
  /** THAW: the task's spec now says interactive, and interactive tasks are never frozen. */
  INTERACTIVE,
  /** THAW: the task lost its spec or its known normal, and tasks the gate cannot judge are never paused. */
  NOT_GATED,
  /** THAW: the task sent no sample for task_idle_timeout_ms; the gate forgets it and keeps nothing frozen it forgot. */
  IDLE_TIMEOUT,
  /** THAW: peak gating was switched off. */
  GATING_OFF,
  /**
   * FREEZE: the enforcer's reflex froze the task between samples and the gate keeps it frozen: it waits in the queue
   * from the time of the reflex freeze, under a full lease.
   */
  REFLEX_ADOPTED,
  /**
   * THAW: the enforcer's reflex froze the task, but the gate would have admitted it (a free slot, room in the
   * budget), or it holds a slot, is interactive, is not gated, is below its threshold, or gating is OFF.
   */
  REFLEX_OVERRULED,
  /** FORGET: the task's cgroup is gone, after the gate had published a decision about it. */
  TASK_GONE
}
