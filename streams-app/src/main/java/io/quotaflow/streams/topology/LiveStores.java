package io.quotaflow.streams.topology;

import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.GateTaskRecord;
import io.quotaflow.schemas.avro.internal.PeakGateStateRecord;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import io.quotaflow.streams.engine.memory.PeakGate;
import java.util.List;
import java.util.Optional;

/**
 * The stores the live-state API ({@code io.quotaflow.streams.api}) reads by interactive queries,
 * and the two facts in them that are rules rather than fields: the order of a node's wait queue
 * and a task's reported limit. Both are asked of the code that decides them, so the API never
 * restates a rule.
 */
public final class LiveStores {

  /** Key pool, value {@link io.quotaflow.schemas.avro.PoolState}; one partition (the pool processor's). */
  public static final String POOL_STATE = Names.POOL_STATE_LATEST_STORE;
  /** Key {@code node/task}, value {@link TaskCpuState} without its spec and ids ({@link #taskCpu} joins them); node-partitioned. */
  public static final String TASK_CPU = Names.TASK_STATE_STORE;
  /** Key {@code node/task}, value {@link io.quotaflow.schemas.avro.TaskSpec}: the specs of the tasks in {@link #TASK_CPU}. */
  public static final String TASK_SPEC = Names.TASK_SPEC_STORE;
  /** Key node, value {@link PeakGateStateRecord}; node-partitioned; absent while the node's gate knows no task. */
  public static final String PEAK_GATE = Names.PEAK_GATE_STORE;
  /**
   * Key {@code node/task}, value {@link GateTaskRecord} without its task id ({@link #gateTask} sets it): the tasks of
   * the gates in {@link #PEAK_GATE}.
   */
  public static final String PEAK_GATE_TASKS = Names.PEAK_GATE_TASKS_STORE;

  /** A node's gate as the stores hold it: its settings and clock, and its tasks. */
  public record GateView(PeakGateStateRecord node, List<GateTaskRecord> tasks) {
    public GateView {
      tasks = List.copyOf(tasks);
    }

    /** The gate's stream time: its node record's or a newer one its task records carry. */
    public long streamTimeMs() {
      return GateRecords.clock(node, tasks).getStreamTimeMs();
    }
  }
  /** Key node, value {@link io.quotaflow.schemas.avro.NodeStatus}; node-partitioned. */
  public static final String NODE_STATUS = Names.NODE_STATUS_STORE;

  private LiveStores() {}

  /** The node's waiting tasks, head first, in the gate's own order (waiting since, then task id). */
  public static List<String> waitQueue(GateView gate) {
    // Profiles do not order the queue: none is looked up.
    return PeakGate.restore(GateRecords.gate(gate.node(), gate.tasks()), operation -> Optional.empty()).queuedTasks();
  }

  /**
   * A task's state as {@link #TASK_CPU} holds it under {@code key}, with its spec from {@link #TASK_SPEC} ({@code
   * spec} null: none stored) and its key's ids, as the CPU processor reads the two; null when no state is stored.
   */
  public static TaskCpuState taskCpu(String key, TaskCpuState stored, TaskSpec spec) {
    return stored == null ? null : StoredTaskState.read(key, stored, spec);
  }

  /** A task record as {@link #PEAK_GATE_TASKS} holds it under {@code key}, with the key's task id, as the gate reads it. */
  public static GateTaskRecord gateTask(String key, GateTaskRecord stored) {
    return GateRecords.read(key, stored);
  }

  /** What the task's pool counts for it (DESIGN §1); empty for a task whose hard limit is not known yet. */
  public static Optional<Double> reportedLimitCpu(TaskCpuState state) {
    if (state.getSpec() == null && state.getObservedHardLimitCpu() == null) {
      return Optional.empty();
    }
    return Optional.of(CpuDecisionMaker.reportedLimit(state));
  }
}
