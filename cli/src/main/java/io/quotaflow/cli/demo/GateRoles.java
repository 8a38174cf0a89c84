package io.quotaflow.cli.demo;

import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.schemas.avro.FreezeDecision;
import java.util.HashMap;
import java.util.Map;

/**
 * Where each gated demo task stands at the memory peak gate, as a consumer of {@code freeze-decisions}
 * can tell: <b>waiting</b> while its latest decision is FREEZE; otherwise <b>holding</b> from a THAW
 * into a freed slot, or from when it is seen above {@code threshold × normal} on two rows running (a
 * task the gate froze instead gets its FREEZE within a row), until it is seen at or below
 * {@code release × normal}; else <b>running</b>. The gate publishes no decision for a task that takes
 * a free slot, so its memory is the only sign of that. Pure: the caller supplies every reading; one
 * instance per table.
 */
public final class GateRoles {

  public static final String RUNNING = "running";
  public static final String HOLDING = "holding";
  public static final String WAITING = "waiting";

  /** What the rows so far say of one task. */
  private static final class Seen {
    int rowsAbove;
    boolean holding;
    /** ts_ms of the THAW that gave it a slot and that it has since used up by falling back. */
    long spentThawTsMs = Long.MIN_VALUE;
  }

  private final double thresholdRatio;
  private final double releaseRatio;
  private final Map<String, Seen> seen = new HashMap<>();

  public GateRoles(double thresholdRatio, double releaseRatio) {
    this.thresholdRatio = thresholdRatio;
    this.releaseRatio = releaseRatio;
  }

  /**
   * The task's role for this row.
   *
   * @param normalBytes its declared normal usage; null: not gated, no role
   * @param latest its latest freeze decision, null if none
   * @param anonBytes its anonymous memory now, null if unknown
   */
  public String next(String taskId, Long normalBytes, FreezeDecision latest, Long anonBytes) {
    if (normalBytes == null) {
      return null;
    }
    Seen task = seen.computeIfAbsent(taskId, t -> new Seen());
    if (latest != null && latest.getAction() == FreezeAction.FREEZE) {
      task.rowsAbove = 0;
      task.holding = false;
      return WAITING;
    }
    // A THAW because a slot freed puts the task straight into that slot, until it falls back.
    boolean thawedIntoASlot = latest != null && latest.getReason().equals("SLOT_FREED")
        && latest.getTsMs() != task.spentThawTsMs;
    if (anonBytes != null && anonBytes <= releaseRatio * normalBytes) {
      task.rowsAbove = 0;
      task.holding = false;
      if (latest != null) {
        task.spentThawTsMs = latest.getTsMs();
      }
    } else if (anonBytes != null && anonBytes > thresholdRatio * normalBytes) {
      task.rowsAbove++;
      task.holding |= task.rowsAbove >= 2 || thawedIntoASlot;
    } else {
      task.holding |= thawedIntoASlot;
    }
    return task.holding ? HOLDING : RUNNING;
  }
}
