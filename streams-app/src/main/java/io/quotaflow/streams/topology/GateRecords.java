package io.quotaflow.streams.topology;

import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.GateMode;
import io.quotaflow.schemas.avro.GateTableTask;
import io.quotaflow.schemas.avro.GateTaskRole;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.internal.FinishedTaskUsageRecord;
import io.quotaflow.schemas.avro.internal.GateClockRecord;
import io.quotaflow.schemas.avro.internal.GateConfigRecord;
import io.quotaflow.schemas.avro.internal.GateRoleRecord;
import io.quotaflow.schemas.avro.internal.GateTaskRecord;
import io.quotaflow.schemas.avro.internal.MemoryProfileRecord;
import io.quotaflow.schemas.avro.internal.PeakGateStateRecord;
import io.quotaflow.schemas.avro.internal.TaskUsageStatsRecord;
import io.quotaflow.streams.engine.memory.CgroupState;
import io.quotaflow.streams.engine.memory.FinishedTaskUsage;
import io.quotaflow.streams.engine.memory.GateAction;
import io.quotaflow.streams.engine.memory.GateDecision;
import io.quotaflow.streams.engine.memory.GateRole;
import io.quotaflow.streams.engine.memory.GateTable;
import io.quotaflow.streams.engine.memory.GatingMode;
import io.quotaflow.streams.engine.memory.MemoryProfile;
import io.quotaflow.streams.engine.memory.MemorySample;
import io.quotaflow.streams.engine.memory.PeakGate;
import io.quotaflow.streams.engine.memory.PeakGateConfig;
import io.quotaflow.streams.engine.memory.PeakGateState;
import io.quotaflow.streams.engine.memory.TaskGateState;
import io.quotaflow.streams.engine.memory.TaskMemorySpec;
import io.quotaflow.streams.engine.memory.TaskUsageStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Maps the topology's Avro records onto the memory engines' plain values and back, so the gate
 * processors only move records between stores and topics (as {@link CpuDecisionMaker} does for CPU).
 */
final class GateRecords {

  /**
   * The record's role for each of the engine's, by ordinal: a task record is built at every commit for every task
   * written since, and {@code valueOf(name())} was 1.4 % of the stream threads' samples at 100,000 tasks in JFR.
   * The two enums name the same roles; a name missing from the record's fails when this class loads.
   */
  private static final GateRoleRecord[] ROLE_RECORDS = Arrays.stream(GateRole.values())
      .map(role -> GateRoleRecord.valueOf(role.name())).toArray(GateRoleRecord[]::new);

  private GateRecords() {}

  /** The gate's settings on a node: the cluster config's gating fields and the node's memory (0 until it reports). */
  static PeakGateConfig config(ClusterConfig cluster, NodeStatus node) {
    return new PeakGateConfig(GatingMode.valueOf(cluster.getPeakGatingMode().name()), cluster.getPeakThresholdRatio(),
        cluster.getPeakReleaseRatio(), cluster.getMaxConcurrentPeaks(), node == null ? 0 : node.getMemoryTotalBytes(),
        cluster.getMemoryHeadroomBytes(), cluster.getFreezeLeaseMs(), cluster.getTaskIdleTimeoutMs(),
        cluster.getQueueWaitAlertMs());
  }

  static MemorySample sample(CgroupSample s) {
    return new MemorySample(s.getTask(), s.getTsMs(), s.getMemoryBytes(), s.getMemoryAnonBytes(),
        CgroupState.valueOf(s.getState().name()));
  }

  /** The record to publish: null (a tombstone) when the decision withdraws the task's last one. */
  static FreezeDecision decision(GateDecision d) {
    if (d.action() == GateAction.FORGET) {
      return null;
    }
    return FreezeDecision.newBuilder().setNode(d.node()).setTask(d.task()).setTsMs(d.tsMs())
        .setAction(FreezeAction.valueOf(d.action().name())).setReason(d.reason().name())
        .setQueuePosition(d.queuePosition()).setLeaseMs(d.leaseMs()).build();
  }

  static FinishedTaskUsageRecord finished(String node, String task, long tsMs, FinishedTaskUsage usage) {
    return FinishedTaskUsageRecord.newBuilder().setNode(node).setTask(task).setOperation(usage.operation())
        .setTsMs(tsMs).setMeanBytes(usage.meanBytes()).setMaxBytes(usage.maxBytes()).build();
  }

  static FinishedTaskUsage finished(FinishedTaskUsageRecord r) {
    return new FinishedTaskUsage(r.getOperation(), r.getMeanBytes(), r.getMaxBytes());
  }

  static MemoryProfile profile(MemoryProfileRecord r) {
    return new MemoryProfile(r.getNormalBytes(), r.getPeakBytes(), r.getRuns());
  }

  static MemoryProfileRecord profile(String operation, MemoryProfile p, long tsMs) {
    return MemoryProfileRecord.newBuilder().setOperation(operation).setNormalBytes(p.normalBytes())
        .setPeakBytes(p.peakBytes()).setRuns(p.runs()).setUpdatedTsMs(tsMs).build();
  }

  static TaskUsageStats usage(TaskUsageStatsRecord r) {
    return new TaskUsageStats(r.getOperation(), r.getSamples(), r.getSumBytes(), r.getMaxBytes(), r.getLastSeenMs());
  }

  static TaskUsageStatsRecord usage(TaskUsageStats s) {
    return TaskUsageStatsRecord.newBuilder().setOperation(s.operation()).setSamples(s.samples())
        .setSumBytes(s.sumBytes()).setMaxBytes(s.maxBytes()).setLastSeenMs(s.lastSeenMs()).build();
  }

  /** A node's gate from its node record and its task records (any order). */
  static PeakGateState gate(PeakGateStateRecord node, List<GateTaskRecord> taskRecords) {
    List<TaskGateState> tasks = new ArrayList<>(taskRecords.size());
    for (GateTaskRecord t : taskRecords) {
      tasks.add(task(t));
    }
    tasks.sort(java.util.Comparator.comparing(TaskGateState::task));
    GateConfigRecord c = node.getConfig();
    PeakGateConfig config = new PeakGateConfig(GatingMode.valueOf(c.getMode()), c.getPeakThresholdRatio(),
        c.getPeakReleaseRatio(), c.getMaxConcurrentPeaks(), c.getMemoryTotalBytes(), c.getMemoryHeadroomBytes(),
        c.getFreezeLeaseMs(), c.getTaskIdleTimeoutMs(), c.getQueueWaitAlertMs());
    return new PeakGateState(node.getNode(), config, clock(node, taskRecords).getStreamTimeMs(), node.getLateSamples(),
        tasks);
  }

  /**
   * A gate's clock as its records hold it: the newest of its node record's and those its task records carry
   * ({@code gate_clock}), field by field. The node record is not rewritten when only the clock moved and a task
   * record written at the same time carries it; both fields only grow, so the newest is the last written.
   */
  static GateClockRecord clock(PeakGateStateRecord node, List<GateTaskRecord> taskRecords) {
    long streamTimeMs = node.getStreamTimeMs();
    long clockRecordTsMs = node.getClockRecordTsMs();
    for (GateTaskRecord t : taskRecords) {
      GateClockRecord c = t.getGateClock();
      if (c != null) {
        streamTimeMs = Math.max(streamTimeMs, c.getStreamTimeMs());
        clockRecordTsMs = Math.max(clockRecordTsMs, c.getClockRecordTsMs());
      }
    }
    return new GateClockRecord(streamTimeMs, clockRecordTsMs);
  }

  /**
   * A task record read from the store under {@code key} ({@code node/task}), with the key's task id: a copy, since
   * {@code stored} may be the processor's own record waiting in the write-back for the commit. Records written
   * before the id was left to the key hold it; they are read the same way.
   */
  static GateTaskRecord read(String key, GateTaskRecord stored) {
    return GateTaskRecord.newBuilder(stored).setTask(TaskKey.taskOf(key)).build();
  }

  static TaskGateState task(GateTaskRecord t) {
    TaskMemorySpec spec = t.getHasSpec()
        ? new TaskMemorySpec(t.getTask(), t.getOperation(), t.getMemoryNormalBytes(), t.getMemoryPeakBytes(),
            t.getInteractive())
        : null;
    return new TaskGateState(t.getTask(), spec, t.getLive(), t.getUsageBytes(), t.getMaxUsageBytes(),
        t.getLastSeenMs(), GateRole.valueOf(t.getRole().name()), t.getWaitingSinceMs(), t.getLastFreezeSentMs(),
        t.getDecisionPublished());
  }

  /**
   * The task's record: its gate state, its usage totals while it is live ({@code usage} may be null) and its
   * gate's clock ({@code streamTimeMs}, {@code clockRecordTsMs}) when it was written. Its task id is left to its key
   * ({@link #read}): a record written on every sample need not repeat an id of up to 128 characters.
   */
  static GateTaskRecord task(TaskGateState t, TaskUsageStats usage, long streamTimeMs, long clockRecordTsMs) {
    TaskMemorySpec spec = t.spec();
    return GateTaskRecord.newBuilder().setTask("").setHasSpec(spec != null)
        .setOperation(spec == null ? "" : spec.operation())
        .setMemoryNormalBytes(spec == null ? null : spec.memoryNormalBytes())
        .setMemoryPeakBytes(spec == null ? null : spec.memoryPeakBytes())
        .setInteractive(spec != null && spec.interactive()).setLive(t.live()).setUsageBytes(t.usageBytes())
        .setMaxUsageBytes(t.maxUsageBytes()).setLastSeenMs(t.lastSeenMs())
        .setRole(ROLE_RECORDS[t.role().ordinal()]).setWaitingSinceMs(t.waitingSinceMs())
        .setLastFreezeSentMs(t.lastFreezeSentMs()).setDecisionPublished(t.decisionPublished())
        .setUsage(usage == null ? null : usage(usage))
        .setGateClock(new GateClockRecord(streamTimeMs, clockRecordTsMs)).build();
  }

  /** The node-level part of a gate: settings, stream time, counters; its tasks are kept one record each. */
  static PeakGateStateRecord node(PeakGate gate, long clockRecordTsMs) {
    PeakGateConfig c = gate.config();
    GateConfigRecord config = GateConfigRecord.newBuilder().setMode(c.mode().name())
        .setPeakThresholdRatio(c.peakThresholdRatio()).setPeakReleaseRatio(c.peakReleaseRatio())
        .setMaxConcurrentPeaks(c.maxConcurrentPeaks()).setMemoryTotalBytes(c.memoryTotalBytes())
        .setMemoryHeadroomBytes(c.memoryHeadroomBytes()).setFreezeLeaseMs(c.freezeLeaseMs())
        .setTaskIdleTimeoutMs(c.taskIdleTimeoutMs()).setQueueWaitAlertMs(c.queueWaitAlertMs()).build();
    return PeakGateStateRecord.newBuilder().setNode(gate.node()).setConfig(config).setStreamTimeMs(gate.streamTimeMs())
        .setClockRecordTsMs(clockRecordTsMs).setLateSamples(gate.lateSamples()).build();
  }

  /** The gate table as published on {@code gate-tables}. */
  static io.quotaflow.schemas.avro.GateTable table(GateTable t) {
    List<GateTableTask> rows = new ArrayList<>(t.tasks().size());
    for (GateTable.Row r : t.tasks()) {
      rows.add(GateTableTask.newBuilder().setTask(r.task()).setRole(GateTaskRole.valueOf(r.role().name()))
          .setInteractive(r.interactive()).setThresholdBytes(r.thresholdBytes()).setPeakBytes(r.peakBytes())
          .setAdmitted(r.admitted()).build());
    }
    return io.quotaflow.schemas.avro.GateTable.newBuilder().setNode(t.node()).setTsMs(t.tsMs())
        .setMode(GateMode.valueOf(t.mode().name())).setHolders(t.holders()).setQueue(t.queue())
        .setAdmitsNewPeak(t.admitsNewPeak()).setFreeSlots(t.freeSlots()).setBytesLeft(t.bytesLeft()).setTasks(rows)
        .build();
  }

  /** A published gate table back as the engine's value, to compare the next one with. */
  static GateTable table(io.quotaflow.schemas.avro.GateTable r) {
    List<GateTable.Row> rows = new ArrayList<>(r.getTasks().size());
    for (GateTableTask t : r.getTasks()) {
      rows.add(new GateTable.Row(t.getTask(), GateRole.valueOf(t.getRole().name()), t.getInteractive(),
          t.getThresholdBytes(), t.getPeakBytes(), t.getAdmitted()));
    }
    return new GateTable(r.getNode(), r.getTsMs(), GatingMode.valueOf(r.getMode().name()), r.getHolders(),
        r.getQueue(), r.getAdmitsNewPeak(), r.getFreeSlots(), r.getBytesLeft(), rows);
  }
}
