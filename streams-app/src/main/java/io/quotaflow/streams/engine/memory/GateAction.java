package io.quotaflow.streams.engine.memory;

/** What the enforcer does to a task's freezer (FreezeDecision {@code action}), or that the task's decision is withdrawn. */
public enum GateAction {
  FREEZE,
  THAW,
  /** The task is gone: its last decision is withdrawn (a tombstone), so the compacted topic keeps nothing stale. */
  FORGET
}
