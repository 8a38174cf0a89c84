package io.quotaflow.enforcer;

import io.quotaflow.cgroups.TaskId;
import io.quotaflow.schemas.avro.EnforcementKind;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The latest decision of each of the node's tasks (the map read to the end offsets at start and
 * kept while tailing), and which decisions were already answered "group does not exist". Pure.
 */
public final class TaskBook {

  private final Map<TaskId, CpuIntent> cpu = new TreeMap<>();
  private final Map<TaskId, FreezeIntent> freeze = new TreeMap<>();
  private final Map<EnforcementKind, Map<TaskId, DecisionRef>> missingReported = new HashMap<>();

  public void put(CpuIntent intent) {
    cpu.put(intent.task(), intent);
  }

  public void put(FreezeIntent intent) {
    freeze.put(intent.task(), intent);
  }

  /** A tombstone: the task's CPU decision is withdrawn. */
  public void withdrawCpu(TaskId task) {
    cpu.remove(task);
    forgetMissing(EnforcementKind.CPU, task);
  }

  /** A tombstone: the task's freeze decision is withdrawn. */
  public void withdrawFreeze(TaskId task) {
    freeze.remove(task);
    forgetMissing(EnforcementKind.FREEZE, task);
  }

  /** The latest CPU decisions, by task id: what a reconcile applies. */
  public List<CpuIntent> cpuIntents() {
    return List.copyOf(cpu.values());
  }

  /** The latest freeze decisions, by task id. */
  public List<FreezeIntent> freezeIntents() {
    return List.copyOf(freeze.values());
  }

  /** The limits of the latest CPU decision of each task: the per-task gauges' series, no more. */
  public Map<TaskId, CpuLimits> cpuLimits() {
    Map<TaskId, CpuLimits> limits = new TreeMap<>();
    cpu.forEach((task, intent) -> limits.put(task, intent.limits()));
    return limits;
  }

  public int taskCount() {
    Set<TaskId> tasks = new HashSet<>(cpu.keySet());
    tasks.addAll(freeze.keySet());
    return tasks.size();
  }

  /**
   * Whether a "group does not exist" answer to this decision is still due. Each decision is
   * answered once: a reconcile that finds the group still missing stays silent, and nothing retries
   * on its own; a new decision for the task (or a restart) tries again and is answered again.
   */
  public boolean firstMissingReport(EnforcementKind kind, TaskId task, DecisionRef ref) {
    DecisionRef previous = missingReported.computeIfAbsent(kind, k -> new HashMap<>()).put(task, ref);
    return !ref.equals(previous);
  }

  /** The group was found: a later disappearance is news again. */
  public void groupFound(EnforcementKind kind, TaskId task) {
    forgetMissing(kind, task);
  }

  private void forgetMissing(EnforcementKind kind, TaskId task) {
    Map<TaskId, DecisionRef> reported = missingReported.get(kind);
    if (reported != null) {
      reported.remove(task);
    }
  }
}
