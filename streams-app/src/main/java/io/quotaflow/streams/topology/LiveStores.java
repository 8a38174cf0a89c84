package io.quotaflow.streams.topology;

import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.GateTaskRecord;
import io.quotaflow.schemas.avro.internal.PeakGateStateRecord;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import io.quotaflow.schemas.avro.internal.TaskRecord;
import io.quotaflow.streams.engine.memory.PeakGate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The stores the live-state API ({@code io.quotaflow.streams.api}) reads by interactive queries,
 * and the two facts in them that are rules rather than fields: the order of a node's wait queue
 * and a task's reported limit. Both are asked of the code that decides them, so the API never
 * restates a rule.
 */
public final class LiveStores {

  /** Key pool, value {@link io.quotaflow.schemas.avro.PoolState}; one partition (the pool processor's). */
  public static final String POOL_STATE = Names.POOL_STATE_LATEST_STORE;
  /**
   * Key {@code node/task}, value {@link TaskRecord}: a task's CPU state without its spec and ids ({@link #taskCpu}
   * joins them) and its gate record without its task id ({@link #gateTasks} sets it), the tasks of the gates in
   * {@link #PEAK_GATE}; node-partitioned.
   */
  public static final String TASKS = Names.TASK_STORE;
  /** Key {@code node/task}, value {@link io.quotaflow.schemas.avro.TaskSpec}: the specs of the tasks in {@link #TASKS}. */
  public static final String TASK_SPEC = Names.TASK_SPEC_STORE;
  /** Key node, value {@link PeakGateStateRecord}; node-partitioned; absent while the node's gate knows no task. */
  public static final String PEAK_GATE = Names.PEAK_GATE_STORE;

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
   * A task's state as {@link #TASKS} holds it under {@code key} (its record's {@code cpu}), with its spec from {@link
   * #TASK_SPEC} ({@code spec} null: none stored) and its key's ids, as the CPU processor reads the two; null when no
   * state is stored.
   */
  public static TaskCpuState taskCpu(String key, TaskCpuState stored, TaskSpec spec) {
    return stored == null ? null : StoredTaskState.read(key, stored, spec);
  }

  /** The gate records of the node's tasks in {@link #TASKS}, in key order, each with its task id, as the gate reads them. */
  public static List<GateTaskRecord> gateTasks(ReadOnlyKeyValueStore<String, TaskRecord> tasks, String node) {
    List<GateTaskRecord> gate = new ArrayList<>();
    try (KeyValueIterator<String, TaskRecord> it = tasks.prefixScan(TaskKey.nodePrefix(node), new StringSerializer())) {
      it.forEachRemaining(kv -> {
        if (kv.value.getGate() != null) {
          gate.add(GateRecords.read(kv.key, kv.value.getGate()));
        }
      });
    }
    return gate;
  }

  /** What the task's pool counts for it (DESIGN §1); empty for a task whose hard limit is not known yet. */
  public static Optional<Double> reportedLimitCpu(TaskCpuState state) {
    if (state.getSpec() == null && state.getObservedHardLimitCpu() == null) {
      return Optional.empty();
    }
    return Optional.of(CpuDecisionMaker.reportedLimit(state));
  }
}
