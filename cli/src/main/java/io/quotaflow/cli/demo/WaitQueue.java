package io.quotaflow.cli.demo;

import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.schemas.avro.FreezeDecision;
import java.util.HashMap;
import java.util.Map;

/**
 * A node's wait queue as the freeze decisions tell it, in the gate's own order (DESIGN §4: FIFO by the
 * stream time a task was frozen, ties by task id). A decision's {@code queue_position} is the place
 * when it was sent; the gate re-sends it only with a lease renewal (a third of a lease later), so after
 * the head is thawed the others' published places are stale for a while. This follows every FREEZE
 * and THAW instead and gives each waiting task's place now. Thread-safe: the decision reader writes
 * it, the table reads it.
 */
final class WaitQueue {

  private record Waiting(long sinceTsMs, String task) {}

  private final Map<String, Waiting> waiting = new HashMap<>();

  /** The task's latest decision; null for a tombstone (the gate forgot the task). */
  synchronized void onDecision(String task, FreezeDecision decision) {
    if (decision == null || decision.getAction() == FreezeAction.THAW) {
      waiting.remove(task);
    } else if (!waiting.containsKey(task)) {
      // The first FREEZE of a wait; renewals keep the place it gave.
      waiting.put(task, new Waiting(decision.getTsMs(), task));
    }
  }

  /** The task's place now, 0 = head; null when it is not waiting. */
  synchronized Integer position(String task) {
    Waiting self = waiting.get(task);
    if (self == null) {
      return null;
    }
    int ahead = 0;
    for (Waiting other : waiting.values()) {
      if (other.sinceTsMs() < self.sinceTsMs()
          || (other.sinceTsMs() == self.sinceTsMs() && other.task().compareTo(self.task()) < 0)) {
        ahead++;
      }
    }
    return ahead;
  }
}
