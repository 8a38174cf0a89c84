package io.quotaflow.streams.engine.memory;

/** What the enforcer does to a task's freezer (FreezeDecision {@code action}). */
public enum GateAction {
  FREEZE,
  THAW
}
