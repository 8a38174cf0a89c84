package io.quotaflow.enforcer;

import io.quotaflow.cgroups.TaskId;
import io.quotaflow.schemas.avro.GateMode;
import io.quotaflow.schemas.avro.GateTable;
import io.quotaflow.schemas.avro.GateTableTask;
import io.quotaflow.schemas.avro.GateTaskRole;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The memory reflex's rule (docs/enforcer.md "The memory reflex"): which tasks to watch between
 * samples, and which of them to freeze now. Pure: the table, the mode and the readings are
 * arguments; no clock, no files.
 *
 * <p>The streams app's gate stays the authority: the reflex only acts where the gate's own last
 * table says the task would be kept waiting ({@code admitted=false}), and only on a crossing: a
 * reading above the threshold after one at or below it. The reading before may be the gate's own:
 * a table that arrived since the last round lists the task {@code RUNNING}, which the gate leaves a
 * task only at or below its threshold, so a task first read above it right after such a table
 * crossed since the gate's last sample (the gate would freeze it at its next one). Otherwise, a
 * task already above its threshold when first read (after a restart, say, on a table that may be
 * old), or one the gate thawed while above it, is left to the gate.
 */
final class ReflexRule {

  /** A task to freeze now: its reading above {@code thresholdBytes}. */
  record Freeze(TaskId task, long usageBytes, long thresholdBytes) {}

  private ReflexRule() {}

  /**
   * The tasks to watch, with their thresholds, by task id: none without a table of this node, under
   * gating mode OFF, or unless enforcement is {@link Mode#ON} (neither the cluster's DRY_RUN or OFF
   * nor {@code --dry-run}). Of the table's rows, only a task RUNNING, not interactive, not admitted,
   * not named among the holders or the queue, and whose id is one safe path component.
   */
  static Map<TaskId, Long> watched(GateTable table, String node, Mode mode) {
    Map<TaskId, Long> watched = new TreeMap<>();
    if (table == null || mode != Mode.ON || table.getMode() == GateMode.OFF || !node.equals(table.getNode())) {
      return watched;
    }
    // A task the table lists as holder or waiting is never the reflex's, whatever its row says.
    Set<String> gated = new HashSet<>(table.getHolders());
    gated.addAll(table.getQueue());
    for (GateTableTask row : table.getTasks()) {
      if (row.getRole() != GateTaskRole.RUNNING || row.getInteractive() || row.getAdmitted()
          || gated.contains(row.getTask()) || !TaskId.isValid(row.getTask()) || row.getThresholdBytes() < 0) {
        continue;
      }
      watched.put(TaskId.of(row.getTask()), row.getThresholdBytes());
    }
    return watched;
  }

  /**
   * The watched tasks to freeze now: a reading above the threshold that follows a reading at or
   * below it, of a task this enforcer does not already hold a freeze lease on.
   *
   * @param watched tasks and thresholds ({@link #watched})
   * @param held whether this enforcer holds a freeze lease on a task
   * @param previous each task's reading before, bytes; a task missing here was not read then
   * @param current each task's reading now, bytes; a task missing here could not be read
   * @param tableSinceLastRound whether a gate table arrived since the last round: its {@code RUNNING}
   *     rows stand for a reading at or below the threshold of tasks without one in {@code previous}
   */
  static List<Freeze> toFreeze(Map<TaskId, Long> watched, Predicate<TaskId> held, Map<TaskId, Long> previous,
      Map<TaskId, Long> current, boolean tableSinceLastRound) {
    List<Freeze> freezes = new ArrayList<>();
    for (Map.Entry<TaskId, Long> watch : watched.entrySet()) {
      TaskId task = watch.getKey();
      long threshold = watch.getValue();
      Long before = previous.get(task);
      Long now = current.get(task);
      if (now == null || held.test(task)) {
        continue;
      }
      boolean belowBefore = before != null ? before <= threshold : tableSinceLastRound;
      if (belowBefore && now > threshold) {
        freezes.add(new Freeze(task, now, threshold));
      }
    }
    return freezes;
  }
}
