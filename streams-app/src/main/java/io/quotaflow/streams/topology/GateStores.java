package io.quotaflow.streams.topology;

import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.internal.ConfigBroadcast;
import io.quotaflow.schemas.avro.internal.GateTaskRecord;
import io.quotaflow.schemas.avro.internal.PeakGateStateRecord;
import io.quotaflow.schemas.avro.internal.TaskUsageStatsRecord;
import io.quotaflow.streams.engine.memory.GateDecision;
import io.quotaflow.streams.engine.memory.GateTable;
import io.quotaflow.streams.engine.memory.PeakGate;
import io.quotaflow.streams.engine.memory.MemoryProfile;
import io.quotaflow.streams.engine.memory.ProfileLookup;
import io.quotaflow.streams.engine.memory.TaskGateState;
import io.quotaflow.streams.engine.memory.TaskUsageStats;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.serialization.StringSerializer;
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
 * at once: the node's settings and clock in {@code peak-gate-state}, each changed task in
 * {@code peak-gate-tasks}. A sample so rewrites one small task record, never the whole node, and
 * the stores always hold exactly what the memory does, so a restart or a rebalance (which builds
 * this object anew) continues from them with the same decisions.
 *
 * <p>The node's gate table (what the enforcer's reflex reads) is compared after every change with the
 * last one published, kept in {@code peak-gate-published-table}, so a restart publishes exactly
 * what the run before it would have.
 */
final class GateStores {

  private static final StringSerializer KEYS = new StringSerializer();

  private final ProcessorContext<String, Object> context;
  private final TopologyProbe probe;
  final KeyValueStore<String, PeakGateStateRecord> gates;
  private final KeyValueStore<String, GateTaskRecord> gateTasks;
  private final KeyValueStore<String, TaskUsageStatsRecord> usage;
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
  /** Usage totals read or written since this object was made, written through like the gates: no decode per sample. */
  private final Map<String, TaskUsageStats> usageLoaded = new HashMap<>();
  /** The table last published per node, once read (a null value: none published): no decode per sample. */
  private final Map<String, GateTable> tablesLoaded = new HashMap<>();

  GateStores(ProcessorContext<String, Object> context, TopologyProbe probe) {
    this.context = context;
    this.probe = probe;
    this.gates = context.getStateStore(Names.PEAK_GATE_STORE);
    this.gateTasks = context.getStateStore(Names.PEAK_GATE_TASKS_STORE);
    this.usage = context.getStateStore(Names.MEMORY_USAGE_STATS_STORE);
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
    PeakGateStateRecord stored = gates.get(node);
    if (stored == null) {
      return new NodeGate(new PeakGate(node, GateRecords.config(cluster(), node(node)), profiles), 0);
    }
    List<GateTaskRecord> tasks = new ArrayList<>();
    try (KeyValueIterator<String, GateTaskRecord> all = gateTasks.prefixScan(TaskKey.nodePrefix(node), KEYS)) {
      all.forEachRemaining(kv -> tasks.add(kv.value));
    }
    return new NodeGate(PeakGate.restore(GateRecords.gate(stored, tasks), profiles), stored.getClockRecordTsMs());
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
    for (TaskGateState task : changes.changed()) {
      gateTasks.put(TaskKey.keyOf(gate.node(), task.task()), GateRecords.task(task));
    }
    for (String task : changes.removed()) {
      gateTasks.delete(TaskKey.keyOf(gate.node(), task));
    }
    if (gate.isEmpty()) {
      gates.delete(gate.node());
      loaded.remove(gate.node());
    } else {
      gates.put(gate.node(), GateRecords.node(gate, node.clockRecordTsMs()));
      loaded.put(gate.node(), node);
    }
    probe.gateStatus(gate.node(), gate.status());
    publishTable(gate, timestampMs);
  }

  private void publishTable(PeakGate gate, long timestampMs) {
    String node = gate.node();
    GateTable last = lastTable(node);
    if (gate.isEmpty()) {
      if (last != null) {
        // Nothing left to gate on the node: the compacted topic keeps no table of it.
        context.forward(new Record<>(node, (Object) null, timestampMs), Names.GATE_TABLES_SINK);
        tables.delete(node);
      }
      tablesLoaded.remove(node); // read again should the node come back
      return;
    }
    if (gate.streamTimeMs() == Long.MIN_VALUE) {
      return; // no sample yet, so no time and no live task: nothing for the reflex to watch, the first sample publishes
    }
    GateTable table = gate.table();
    if (!table.worthPublishingAfter(last)) {
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

  /** The usage totals of task {@code key} ({@code node/task}), or null when it has none. */
  TaskUsageStats usage(String key) {
    TaskUsageStats stats = usageLoaded.get(key);
    if (stats == null) {
      TaskUsageStatsRecord stored = usage.get(key);
      if (stored != null) {
        stats = GateRecords.usage(stored);
        usageLoaded.put(key, stats);
      }
    }
    return stats;
  }

  void putUsage(String key, TaskUsageStats stats) {
    usage.put(key, GateRecords.usage(stats));
    usageLoaded.put(key, stats);
  }

  void deleteUsage(String key) {
    usage.delete(key);
    usageLoaded.remove(key);
  }

  /** Keys of the tasks whose usage totals were last seen {@code idleTimeoutMs} or more before {@code nowTsMs}. */
  List<String> idleUsage(long nowTsMs, long idleTimeoutMs) {
    List<String> stale = new ArrayList<>();
    try (KeyValueIterator<String, TaskUsageStatsRecord> all = usage.all()) {
      while (all.hasNext()) {
        KeyValue<String, TaskUsageStatsRecord> entry = all.next();
        if (nowTsMs - entry.value.getLastSeenMs() >= idleTimeoutMs) {
          stale.add(entry.key);
        }
      }
    }
    return stale;
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
}
