package io.quotaflow.streams.engine.memory;

import java.util.Objects;

/**
 * One decision of the gate, shaped like {@code FreezeDecision}.
 *
 * @param tsMs stream time at which the gate decided
 * @param queuePosition place in the node's wait queue, 0 = head; null for THAW
 * @param leaseMs how long a FREEZE holds at the enforcer unless renewed; null for THAW
 */
public record GateDecision(
    String node, String task, long tsMs, GateAction action, GateReason reason, Integer queuePosition, Long leaseMs) {

  public GateDecision {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(reason, "reason");
    if (action == GateAction.FREEZE && (queuePosition == null || leaseMs == null)) {
      throw new IllegalArgumentException("a FREEZE carries its queue position and lease");
    }
  }

  static GateDecision freeze(String node, String task, long tsMs, GateReason reason, int position, long leaseMs) {
    return new GateDecision(node, task, tsMs, GateAction.FREEZE, reason, position, leaseMs);
  }

  static GateDecision thaw(String node, String task, long tsMs, GateReason reason) {
    return new GateDecision(node, task, tsMs, GateAction.THAW, reason, null, null);
  }

  static GateDecision forget(String node, String task, long tsMs) {
    return new GateDecision(node, task, tsMs, GateAction.FORGET, GateReason.TASK_GONE, null, null);
  }
}
