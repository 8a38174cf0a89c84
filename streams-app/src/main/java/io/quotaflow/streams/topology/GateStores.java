package io.quotaflow.streams.topology;

import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.ConfigBroadcast;
import io.quotaflow.schemas.avro.internal.GateTaskRecord;
import io.quotaflow.schemas.avro.internal.PeakGateStateRecord;
import io.quotaflow.schemas.avro.internal.TaskUsageStatsRecord;
import io.quotaflow.streams.engine.memory.GateDecision;
import io.quotaflow.streams.engine.memory.GateStatus;
import io.quotaflow.streams.engine.memory.GateTable;
import io.quotaflow.streams.engine.memory.GatingMode;
import io.quotaflow.streams.engine.memory.PeakGate;
import io.quotaflow.streams.engine.memory.PeakGateConfig;
import io.quotaflow.streams.engine.memory.MemoryProfile;
import io.quotaflow.streams.engine.memory.ProfileLookup;
import io.quotaflow.streams.engine.memory.TaskGateState;
import io.quotaflow.streams.engine.memory.TaskMemorySpec;
import io.quotaflow.streams.engine.memory.TaskUsageStats;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The stores of the peak gate, and the one way a node's gate changes: {@link #load} it, feed it,
 * {@link #publish} what it decided, {@link #save} it (which publishes its table when worth it).
 *
 * <p>A node's gate lives in memory while its stream task runs, and every change is written through
 * at once: the node's settings, clock and counters in {@code peak-gate-state}, each changed task as its part of
 * the task's record in {@code task-state} ({@link TaskRecords}), together with the usage totals of its run while it
 * is live and the gate's clock.
 * In memory the totals go with the node's gate ({@link NodeGate#usage}); the processor changes them, and the
 * gate's next {@link #save} writes them.
 * A sample so rewrites one small task record, never the whole node: the clock it moved goes with that
 * record, and the node's record is rewritten only when more than its clock changed or no task record
 * carries the clock (a restore takes the newest clock of the two, {@link GateRecords#clock}). The
 * stores always hold exactly what the memory does, so a restart or a rebalance (which builds this object
 * anew) continues from them with the same decisions.
 *
 * <p>The usage totals had a store of their own, {@code memory-usage-stats}, one more write per
 * sample; a gate read from the stores still takes a live task's totals from there once (the task's
 * record then holds them and the old entry is deleted), and idle entries there are swept, so a run
 * under way when the app was upgraded still teaches its operation's profile whole.
 *
 * <p>The node's gate table (what the enforcer's reflex reads) is compared after every change with the
 * last one published, kept in {@code peak-gate-published-table}, so a restart publishes exactly
 * what the run before it would have.
 */
final class GateStores {

  private final ProcessorContext<String, Object> context;
  private final TopologyProbe probe;
  final KeyValueStore<String, PeakGateStateRecord> gates;
  /** Each task's gate record: its part of the task's record, which the CPU processor's part shares. */
  private final TaskRecords<GateTaskRecord> gateTasks;
  /** Usage totals as the app kept them before they moved into the task records: read to carry a run over. */
  private final KeyValueStore<String, TaskUsageStatsRecord> legacyUsage;
  /** Whether a sweep found {@link #legacyUsage} empty: nothing writes it, so it stays so. */
  private boolean legacyUsageEmpty;
  private final KeyValueStore<String, NodeStatus> nodes;
  private final KeyValueStore<String, ConfigBroadcast> configs;
  private final KeyValueStore<String, io.quotaflow.schemas.avro.GateTable> tables;
  /** Learned profiles as this partition received them; never copied into a gate. */
  private final ProfileLookup profiles;
  /**
   * Profiles looked up since the last profile broadcast, absent ones too: the gate asks for every task's on every
   * call (its table), and a store miss costs a RocksDB read each time.
   */
  private final Map<String, Optional<MemoryProfile>> profilesLoaded = new HashMap<>();
  private final Map<String, NodeGate> loaded = new HashMap<>();
  /** What the node records of the loaded gates hold besides the clock, as last written or read. */
  private final Map<String, NodeFields> nodesWritten = new HashMap<>();
  /** The table last published per node, once read (a null value: none published): no decode per sample. */
  private final Map<String, GateTable> tablesLoaded = new HashMap<>();
  /** Per loaded gate, its {@link PeakGate#tableStamp()} when its table was last built and judged. */
  private final Map<String, Long> tablesJudgedAt = new HashMap<>();
  /**
   * Per node, where the gate stood when the gauges last got a status in which nothing waited. Such a status stands
   * until the table stamp (every change of role) or the late-sample count moves, as only a wait grows with time, so
   * it is not taken again after every sample: {@link PeakGate#status()} looks at every task of the node.
   */
  private final Map<String, StatusShown> statusShown = new HashMap<>();
  /** Every gate holds each of its tasks' operation: one instance per operation, not one per decoded spec. */
  private final SharedValues<String> operations = new SharedValues<>();

  GateStores(ProcessorContext<String, Object> context, TopologyProbe probe) {
    this.context = context;
    this.probe = probe;
    this.gates = context.getStateStore(Names.PEAK_GATE_STORE);
    this.gateTasks = TaskRecords.gate(context.getStateStore(Names.TASK_STORE));
    this.legacyUsage = context.getStateStore(Names.MEMORY_USAGE_STATS_STORE);
    this.nodes = context.getStateStore(Names.NODE_STATUS_STORE);
    this.configs = context.getStateStore(Names.CONFIG_STORE);
    this.tables = context.getStateStore(Names.GATE_TABLE_STORE);
    this.profiles = operation -> profilesLoaded.computeIfAbsent(operation, op -> {
      ConfigBroadcast copy = configs.get(TaskStores.PROFILE_KEY_PREFIX + op);
      return copy == null || copy.getMemoryProfile() == null
          ? Optional.empty() : Optional.of(GateRecords.profile(copy.getMemoryProfile()));
    });
  }

  /** A profile was broadcast (or withdrawn) and stored: what was looked up before may be stale. */
  void profilesChanged() {
    profilesLoaded.clear();
    for (NodeGate node : loaded.values()) {
      node.gate().profilesChanged();
    }
  }

  ClusterConfig cluster() {
    return TaskStores.cluster(configs);
  }

  NodeStatus node(String node) {
    return nodes.get(node);
  }

  /** The node's gate: in memory once loaded, else from the stores, else a new one under the settings in force. */
  NodeGate load(String node) {
    NodeGate gate = loaded.get(node);
    if (gate == null) {
      gate = read(node);
      loaded.put(node, gate);
    }
    return gate;
  }

  private NodeGate read(String node) {
    tablesJudgedAt.remove(node); // a table stamp is the gate object's own: this is a new object
    statusShown.remove(node);
    PeakGateStateRecord stored = gates.get(node);
    if (stored == null) {
      return new NodeGate(new PeakGate(node, GateRecords.config(cluster(), node(node)), profiles), 0);
    }
    List<GateTaskRecord> tasks = new ArrayList<>();
    NodeUsage usage = new NodeUsage();
    gateTasks.forEachOf(node, (key, value) -> {
      GateTaskRecord task = GateRecords.read(key, value);
      task.setOperation(operations.of(task.getOperation()));
      if (task.getUsage() != null) {
        task.getUsage().setOperation(operations.of(task.getUsage().getOperation()));
      }
      tasks.add(task);
      readUsage(key, task, usage);
    });
    PeakGate gate = PeakGate.restore(GateRecords.gate(stored, tasks), profiles);
    nodesWritten.put(node, NodeFields.of(gate));
    return new NodeGate(gate, GateRecords.clock(stored, tasks).getClockRecordTsMs(), usage);
  }

  private void readUsage(String key, GateTaskRecord task, NodeUsage usage) {
    if (task.getUsage() != null) {
      usage.load(task.getTask(), GateRecords.usage(task.getUsage()));
      return;
    }
    if (!task.getLive() || legacyUsageEmpty) {
      return;
    }
    TaskUsageStatsRecord before = legacyUsage.get(key);
    if (before != null) {
      usage.carryOver(task.getTask(), GateRecords.usage(before));
    }
  }

  /** The gate's view of a task spec, its operation's string shared with the other tasks'. */
  TaskMemorySpec spec(TaskSpec spec) {
    return new TaskMemorySpec(spec.getTask(), operations.of(spec.getOperation()), spec.getMemoryNormalBytes(),
        spec.getMemoryPeakBytes(), spec.getInteractive());
  }

  /** Nodes with a gate in this partition. */
  List<String> nodes() {
    List<String> all = new ArrayList<>();
    try (KeyValueIterator<String, PeakGateStateRecord> it = gates.all()) {
      it.forEachRemaining(kv -> all.add(kv.key));
    }
    return all;
  }

  /**
   * Writes the gate's changes through, and publishes its table at {@code timestampMs} (the time of the
   * decisions of the same call) when it is worth publishing; a gate that knows no task any more is
   * deleted rather than kept empty, and its published table withdrawn with a tombstone.
   */
  void save(NodeGate node, long timestampMs) {
    PeakGate gate = node.gate();
    PeakGate.Changes changes = gate.drainChanges();
    boolean clockWritten = false;
    for (TaskGateState task : changes.changed()) {
      writeTask(task, node);
      clockWritten = true;
    }
    for (String task : changes.removed()) {
      String key = TaskKey.keyOf(gate.node(), task);
      gateTasks.delete(key);
      forgetUsage(key, task, node.usage());
    }
    if (node.usage().hasWrites()) {
      clockWritten |= writeUsageOnly(node);
    }
    if (gate.isEmpty()) {
      gates.delete(gate.node());
      loaded.remove(gate.node());
      nodesWritten.remove(gate.node());
    } else {
      NodeFields fields = NodeFields.of(gate);
      // Records deleted above held no newer clock than the one just written: the clock only grows.
      if (!clockWritten || !fields.equals(nodesWritten.get(gate.node()))) {
        gates.put(gate.node(), GateRecords.node(gate, node.clockRecordTsMs()));
        nodesWritten.put(gate.node(), fields);
      }
      loaded.put(gate.node(), node);
    }
    showStatus(gate);
    publishTable(gate, timestampMs);
  }

  private void showStatus(PeakGate gate) {
    StatusShown shown = statusShown.get(gate.node());
    if (shown != null && shown.tableStamp() == gate.tableStamp() && shown.lateSamples() == gate.lateSamples()) {
      return; // checked field by field: no object per sample
    }
    GateStatus status = gate.status();
    probe.gateStatus(gate.node(), status);
    if (status.waiting() == 0) {
      statusShown.put(gate.node(), new StatusShown(gate.tableStamp(), gate.lateSamples()));
    } else {
      statusShown.remove(gate.node());
    }
  }

  private record StatusShown(long tableStamp, long lateSamples) {}

  /**
   * The task's record with its totals while it is live and its gate's clock; a run that ended (GONE, idle) takes
   * its totals with it.
   */
  private void writeTask(TaskGateState task, NodeGate node) {
    String key = TaskKey.keyOf(node.gate().node(), task.task());
    // The record is built at the commit from values that do not change (WriteBackStore.Deferred): the node's gate
    // and totals move on, so what this write says is taken now.
    TaskUsageStats usage = node.usage().written(task.task(), task.live());
    long streamTimeMs = node.gate().streamTimeMs();
    long clockRecordTsMs = node.clockRecordTsMs();
    gateTasks.putDeferred(key, () -> GateRecords.task(task, usage, streamTimeMs, clockRecordTsMs));
    deleteCarriedOver(key, task.task(), node.usage());
  }

  /**
   * Tasks of the gate whose totals moved while the gate did not (a late sample), or were carried over; whether any
   * record was written.
   */
  private boolean writeUsageOnly(NodeGate node) {
    boolean written = false;
    for (String task : node.usage().writes()) {
      Optional<TaskGateState> state = node.gate().task(task);
      if (state.isPresent()) {
        writeTask(state.get(), node);
        written = true;
      } else {
        forgetUsage(TaskKey.keyOf(node.gate().node(), task), task, node.usage());
      }
    }
    return written;
  }

  private void forgetUsage(String key, String task, NodeUsage usage) {
    usage.forget(task);
    deleteCarriedOver(key, task, usage);
  }

  /** The task's totals carried over from {@link #legacyUsage} are deleted there once its record holds them or is gone. */
  private void deleteCarriedOver(String key, String task, NodeUsage usage) {
    if (usage.takeCarriedOver(task)) {
      legacyUsage.delete(key);
    }
  }

  private void publishTable(PeakGate gate, long timestampMs) {
    String node = gate.node();
    if (gate.isEmpty()) {
      if (lastTable(node) != null) {
        // Nothing left to gate on the node: the compacted topic keeps no table of it.
        context.forward(new Record<>(node, (Object) null, timestampMs), Names.GATE_TABLES_SINK);
        tables.delete(node);
      }
      tablesLoaded.remove(node); // read again should the node come back
      tablesJudgedAt.remove(node);
      return;
    }
    if (gate.streamTimeMs() == Long.MIN_VALUE) {
      return; // no sample yet, so no time and no live task: nothing for the reflex to watch, the first sample publishes
    }
    long stamp = gate.tableStamp();
    Long judgedAt = tablesJudgedAt.get(node);
    if (judgedAt != null && judgedAt == stamp && gate.config().mode() != GatingMode.BUDGET) {
      return; // the same decisions as when last judged: published then or not worth it then, so not now either
    }
    tablesJudgedAt.put(node, stamp);
    GateTable table = gate.table();
    if (!table.worthPublishingAfter(lastTable(node))) {
      return;
    }
    io.quotaflow.schemas.avro.GateTable record = GateRecords.table(table);
    context.forward(new Record<>(node, (Object) record, timestampMs), Names.GATE_TABLES_SINK);
    tables.put(node, record);
    tablesLoaded.put(node, table);
  }

  /** The table last published for {@code node}, or null when none is. */
  private GateTable lastTable(String node) {
    if (tablesLoaded.containsKey(node)) {
      return tablesLoaded.get(node);
    }
    io.quotaflow.schemas.avro.GateTable stored = tables.get(node);
    GateTable last = stored == null ? null : GateRecords.table(stored);
    tablesLoaded.put(node, last);
    return last;
  }

  /**
   * Deletes the entries of {@code memory-usage-stats} last seen {@code idleTimeoutMs} or more before
   * {@code nowTsMs}: runs that ended without a GONE before their gate was read again, which nothing else removes.
   */
  void sweepIdleLegacyUsage(long nowTsMs, long idleTimeoutMs) {
    if (legacyUsageEmpty) {
      return;
    }
    List<String> stale = new ArrayList<>();
    boolean any = false;
    try (KeyValueIterator<String, TaskUsageStatsRecord> all = legacyUsage.all()) {
      while (all.hasNext()) {
        any = true;
        KeyValue<String, TaskUsageStatsRecord> entry = all.next();
        if (nowTsMs - entry.value.getLastSeenMs() >= idleTimeoutMs) {
          stale.add(entry.key);
        }
      }
    }
    for (String key : stale) {
      legacyUsage.delete(key);
      NodeGate node = loaded.get(TaskKey.nodeOf(key));
      if (node != null) {
        node.usage().takeCarriedOver(TaskKey.taskOf(key)); // deleted there just now
      }
    }
    legacyUsageEmpty = !any;
  }

  void publish(List<GateDecision> decisions, long timestampMs) {
    for (GateDecision d : decisions) {
      // A FORGET is a tombstone: the compacted topic keeps no FREEZE or THAW of a task that is gone.
      context.forward(new Record<>(TaskKey.keyOf(d.node(), d.task()), (Object) GateRecords.decision(d), timestampMs),
          Names.FREEZE_DECISIONS_SINK);
      probe.freezeDecisionPublished(d.action().name());
    }
  }

  void forwardFinished(String operation, Object usageRecord, long timestampMs) {
    context.forward(new Record<>(operation, usageRecord, timestampMs), Names.MEMORY_USAGE_SINK);
  }

  /** A node record's fields besides the clock: a change of them rewrites it. */
  private record NodeFields(PeakGateConfig config, long lateSamples) {
    static NodeFields of(PeakGate gate) {
      return new NodeFields(gate.config(), gate.lateSamples());
    }
  }
}
