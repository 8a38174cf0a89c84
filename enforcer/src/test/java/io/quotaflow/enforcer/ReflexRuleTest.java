package io.quotaflow.enforcer;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cgroups.TaskId;
import io.quotaflow.schemas.avro.GateMode;
import io.quotaflow.schemas.avro.GateTable;
import io.quotaflow.schemas.avro.GateTableTask;
import io.quotaflow.schemas.avro.GateTaskRole;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The reflex's rule: every safety rule of docs/enforcer.md "The memory reflex", one by one. */
class ReflexRuleTest {

  static final String NODE = "node-a";
  static final long MB = 1 << 20;
  static final TaskId JOB = TaskId.of("job-1");

  static GateTableTask row(String task, GateTaskRole role, boolean interactive, boolean admitted) {
    return GateTableTask.newBuilder().setTask(task).setRole(role).setInteractive(interactive)
        .setThresholdBytes(100 * MB).setPeakBytes(400 * MB).setAdmitted(admitted).build();
  }

  static GateTable table(GateMode mode, List<String> holders, List<String> queue, GateTableTask... rows) {
    return GateTable.newBuilder().setNode(NODE).setTsMs(1_000).setMode(mode).setHolders(holders).setQueue(queue)
        .setAdmitsNewPeak(false).setFreeSlots(mode == GateMode.COUNT ? 0 : null).setTasks(List.of(rows)).build();
  }

  static GateTable waitingFor(GateTableTask... rows) {
    return table(GateMode.COUNT, List.of("holder"), List.of(), rows);
  }

  static final GateTableTask RUNNING = row("job-1", GateTaskRole.RUNNING, false, false);

  @Test
  void aRunningNonInteractiveTaskTheGateWouldNotAdmitIsWatchedAtItsThreshold() {
    assertThat(ReflexRule.watched(waitingFor(RUNNING), NODE, Mode.ON)).containsExactly(Map.entry(JOB, 100 * MB));
    assertThat(ReflexRule.watched(table(GateMode.BUDGET, List.of("holder"), List.of(), RUNNING), NODE, Mode.ON))
        .containsOnlyKeys(JOB);
  }

  @Test
  void nothingIsWatchedWithoutATableOfThisNodeOrUnderGatingOff() {
    assertThat(ReflexRule.watched(null, NODE, Mode.ON)).isEmpty();
    assertThat(ReflexRule.watched(table(GateMode.OFF, List.of(), List.of(), RUNNING), NODE, Mode.ON)).isEmpty();
    assertThat(ReflexRule.watched(waitingFor(RUNNING), "node-b", Mode.ON)).as("a table naming another node").isEmpty();
  }

  @Test
  void nothingIsWatchedUnlessEnforcementIsOnAndNotDryRun() {
    // Mode folds the cluster's enforcement and --dry-run (Mode.of): DRY_RUN covers both.
    assertThat(ReflexRule.watched(waitingFor(RUNNING), NODE, Mode.DRY_RUN)).isEmpty();
    assertThat(ReflexRule.watched(waitingFor(RUNNING), NODE, Mode.OFF)).isEmpty();
    assertThat(ReflexRule.watched(waitingFor(RUNNING), NODE, Mode.of(io.quotaflow.schemas.avro.Enforcement.ON, true)))
        .as("--dry-run whatever the cluster says").isEmpty();
  }

  @Test
  void neverAnInteractiveTaskAHolderAWaitingTaskOrOneTheGateWouldAdmit() {
    GateTable gate = waitingFor(
        row("interactive", GateTaskRole.RUNNING, true, false),
        row("holding", GateTaskRole.HOLDING, false, false),
        row("waiting", GateTaskRole.WAITING, false, false),
        row("admitted", GateTaskRole.RUNNING, false, true),
        RUNNING);
    assertThat(ReflexRule.watched(gate, NODE, Mode.ON)).containsOnlyKeys(JOB);
    // Listed as holder or in the queue, whatever its row says.
    GateTable listed = table(GateMode.COUNT, List.of("job-2"), List.of("job-3"),
        row("job-2", GateTaskRole.RUNNING, false, false), row("job-3", GateTaskRole.RUNNING, false, false), RUNNING);
    assertThat(ReflexRule.watched(listed, NODE, Mode.ON)).containsOnlyKeys(JOB);
  }

  @Test
  void aTaskIdThatIsNoSafePathComponentIsNeverWatched() {
    GateTable gate = waitingFor(row("..", GateTaskRole.RUNNING, false, false),
        row("../x", GateTaskRole.RUNNING, false, false), RUNNING);
    assertThat(ReflexRule.watched(gate, NODE, Mode.ON)).containsOnlyKeys(JOB);
  }

  @Test
  void onlyACrossingFreezes() {
    Map<TaskId, Long> watched = Map.of(JOB, 100 * MB);
    assertThat(ReflexRule.toFreeze(watched, t -> false, Map.of(JOB, 90 * MB), Map.of(JOB, 101 * MB), false))
        .containsExactly(new ReflexRule.Freeze(JOB, 101 * MB, 100 * MB));
    assertThat(ReflexRule.toFreeze(watched, t -> false, Map.of(JOB, 100 * MB), Map.of(JOB, 100 * MB + 1), false))
        .as("from exactly at the threshold").hasSize(1);
    assertThat(ReflexRule.toFreeze(watched, t -> false, Map.of(JOB, 90 * MB), Map.of(JOB, 100 * MB), false))
        .as("at the threshold is not above it").isEmpty();
    assertThat(ReflexRule.toFreeze(watched, t -> false, Map.of(JOB, 120 * MB), Map.of(JOB, 130 * MB), true))
        .as("already above before, even just after a table: left to the gate").isEmpty();
    assertThat(ReflexRule.toFreeze(watched, t -> false, Map.of(), Map.of(JOB, 130 * MB), false))
        .as("first reading since watched, no table since the last round: no crossing seen").isEmpty();
    assertThat(ReflexRule.toFreeze(watched, t -> false, Map.of(JOB, 90 * MB), Map.of(), true))
        .as("not read now").isEmpty();
    assertThat(ReflexRule.toFreeze(watched, t -> false, Map.of(JOB, 150 * MB), Map.of(JOB, 90 * MB), true)).isEmpty();
  }

  @Test
  void aTableJustArrivedVouchesForTheReadingBeforeOfATaskNotReadYet() {
    // RUNNING in a table that arrived since the last round: the gate saw the task at or below its threshold.
    Map<TaskId, Long> watched = Map.of(JOB, 100 * MB);
    assertThat(ReflexRule.toFreeze(watched, t -> false, Map.of(), Map.of(JOB, 130 * MB), true))
        .containsExactly(new ReflexRule.Freeze(JOB, 130 * MB, 100 * MB));
    assertThat(ReflexRule.toFreeze(watched, t -> false, Map.of(), Map.of(JOB, 100 * MB), true))
        .as("at the threshold is not above it").isEmpty();
    assertThat(ReflexRule.toFreeze(watched, t -> false, Map.of(), Map.of(), true)).as("not read now").isEmpty();
  }

  @Test
  void neverATaskThisEnforcerAlreadyHolds() {
    Map<TaskId, Long> watched = Map.of(JOB, 100 * MB);
    assertThat(ReflexRule.toFreeze(watched, Set.of(JOB)::contains, Map.of(JOB, 90 * MB), Map.of(JOB, 101 * MB), false))
        .isEmpty();
    assertThat(ReflexRule.toFreeze(watched, Set.of(JOB)::contains, Map.of(), Map.of(JOB, 101 * MB), true)).isEmpty();
  }

  @Test
  void onlyWatchedTasksFreeze() {
    TaskId other = TaskId.of("job-2");
    assertThat(ReflexRule.toFreeze(Map.of(JOB, 100 * MB), t -> false, Map.of(JOB, 90 * MB, other, 90 * MB),
        Map.of(JOB, 95 * MB, other, 500 * MB), true)).isEmpty();
  }
}
