package io.quotaflow.streams.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.GateRoleRecord;
import io.quotaflow.schemas.avro.internal.GateTaskRecord;
import io.quotaflow.schemas.avro.internal.MonitorStateRecord;
import io.quotaflow.schemas.avro.internal.PeakGateStateRecord;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import io.quotaflow.schemas.json.JsonRecords;
import io.quotaflow.streams.topology.LiveStores;
import java.util.List;

/**
 * {@code GET /tasks/{node}/{task}}: one task's CPU state and its place at the memory gate. Limits,
 * cgroup settings and reason are those of the last published {@code CpuDecision} — what the
 * enforcer has been told; smoothed usage and votes are the monitor's state now, which moves every
 * tick without a decision.
 *
 * @param pool null for a task without spec (observed only, in no pool)
 * @param hardLimitCpu null (as the other decision fields) before the first decision
 * @param reportedLimitCpu what the pool counts (DESIGN §1): soft with reclaim on, hard with it off
 * @param effectiveLimitCpu soft limit after the pool cap (DESIGN §3), what the weight is computed from
 * @param smoothedUsageCpu null before the monitor's second tick and for zero-CPU tasks
 * @param votes the monitor's vote window, oldest first
 * @param cgroup exactly what the enforcer writes: shares, weight, quota_us, period_us
 * @param freeze null while the node's gate does not know the task
 * @param spec the task's spec as published, null for a task observed without one
 */
record TaskView(
    String node,
    String task,
    String pool,
    boolean hasSpec,
    boolean reclaimEnabled,
    Double hardLimitCpu,
    Double softLimitCpu,
    Double reportedLimitCpu,
    Double effectiveLimitCpu,
    Double smoothedUsageCpu,
    List<Integer> votes,
    int votesSum,
    Long tickCount,
    long lastSampleTsMs,
    Long decisionTsMs,
    String decisionReason,
    Boolean apply,
    JsonNode cgroup,
    Freeze freeze,
    JsonNode spec) {

  /**
   * The task at its node's memory gate.
   *
   * @param role RUNNING (no slot), HOLDING (a peak slot) or WAITING (frozen, in the queue)
   * @param frozen the gate wants the task frozen (a FREEZE is in force); the enforcer applies it
   * @param queuePosition 0 = head; null unless waiting
   * @param waitingSinceMs stream time it joined the queue; null unless waiting
   * @param live between its first sample and GONE or the idle timeout
   */
  record Freeze(String role, boolean frozen, Integer queuePosition, Long waitingSinceMs, boolean live, long usageBytes,
      long maxUsageBytes) {}

  /** Null when neither store knows the task. */
  static TaskView of(String node, String task, TaskCpuState cpu, LiveStores.GateView gate) {
    Freeze freeze = freeze(task, gate);
    if (cpu == null && freeze == null) {
      return null;
    }
    TaskSpec spec = cpu == null ? null : cpu.getSpec();
    MonitorStateRecord monitor = cpu == null ? null : cpu.getMonitor();
    CpuDecision last = cpu == null ? null : cpu.getLastDecision();
    List<Integer> votes = monitor == null ? List.of() : List.copyOf(monitor.getVotes());
    return new TaskView(node, task,
        spec == null ? null : spec.getPool(),
        spec != null,
        spec != null && spec.getJobCpuMonitor().getEnableCpuReclaim(),
        last == null ? null : last.getHardLimitCpu(),
        last == null ? null : last.getSoftLimitCpu(),
        cpu == null ? null : LiveStores.reportedLimitCpu(cpu).orElse(null),
        last == null ? null : last.getEffectiveLimitCpu(),
        monitor == null ? null : monitor.getSmoothedUsageCpu(),
        votes,
        votes.stream().mapToInt(Integer::intValue).sum(),
        monitor == null ? null : monitor.getTickCount(),
        cpu == null ? 0 : cpu.getLastSampleTsMs(),
        last == null ? null : last.getTsMs(),
        last == null ? null : last.getReason(),
        last == null ? null : last.getApply(),
        last == null ? null : JsonRecords.toJson(last.getCgroup()),
        freeze,
        spec == null ? null : JsonRecords.toJson(spec));
  }

  private static Freeze freeze(String task, LiveStores.GateView gate) {
    if (gate == null) {
      return null;
    }
    for (GateTaskRecord t : gate.tasks()) {
      if (t.getTask().equals(task)) {
        boolean waiting = t.getRole() == GateRoleRecord.WAITING;
        return new Freeze(t.getRole().name(), waiting, waiting ? LiveStores.waitQueue(gate).indexOf(task) : null,
            waiting ? t.getWaitingSinceMs() : null, t.getLive(), t.getUsageBytes(), t.getMaxUsageBytes());
      }
    }
    return null;
  }
}
