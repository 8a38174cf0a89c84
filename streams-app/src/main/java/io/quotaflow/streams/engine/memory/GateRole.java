package io.quotaflow.streams.engine.memory;

/** Where a live task stands with the gate. */
public enum GateRole {
  /** Runs and holds no slot: below its threshold, or not gated at all. */
  RUNNING,
  /** Runs and holds a peak slot (or, in BUDGET, a share of the budget sized by its peak). */
  HOLDING,
  /** Frozen by the gate and in the node's wait queue. */
  WAITING
}
