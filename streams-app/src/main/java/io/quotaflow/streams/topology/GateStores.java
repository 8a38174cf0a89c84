package io.quotaflow.streams.topology;

import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.internal.ConfigBroadcast;
import io.quotaflow.schemas.avro.internal.PeakGateStateRecord;
import io.quotaflow.schemas.avro.internal.TaskUsageStatsRecord;
import io.quotaflow.streams.engine.memory.GateDecision;
import io.quotaflow.streams.engine.memory.PeakGate;
import io.quotaflow.streams.engine.memory.ProfileLookup;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The node-partitioned stores the peak-gate processors share, and the one way a node's gate
 * changes: {@link #load} it, feed it, {@link #save} it and {@link #publish} what it decided. The
 * node status and config stores belong to the CPU processors, which update them first.
 */
final class GateStores {

  private final ProcessorContext<String, Object> context;
  private final TopologyProbe probe;
  final KeyValueStore<String, PeakGateStateRecord> gates;
  final KeyValueStore<String, TaskUsageStatsRecord> usage;
  private final KeyValueStore<String, NodeStatus> nodes;
  private final KeyValueStore<String, ConfigBroadcast> configs;
  /** Learned profiles as this partition received them; looked up afresh on every use, never copied into a gate. */
  private final ProfileLookup profiles;

  GateStores(ProcessorContext<String, Object> context, TopologyProbe probe) {
    this.context = context;
    this.probe = probe;
    this.gates = context.getStateStore(Names.PEAK_GATE_STORE);
    this.usage = context.getStateStore(Names.MEMORY_USAGE_STATS_STORE);
    this.nodes = context.getStateStore(Names.NODE_STATUS_STORE);
    this.configs = context.getStateStore(Names.CONFIG_STORE);
    this.profiles = operation -> {
      ConfigBroadcast copy = configs.get(TaskStores.PROFILE_KEY_PREFIX + operation);
      return copy == null || copy.getMemoryProfile() == null
          ? Optional.empty() : Optional.of(GateRecords.profile(copy.getMemoryProfile()));
    };
  }

  ClusterConfig cluster() {
    return TaskStores.cluster(configs);
  }

  NodeStatus node(String node) {
    return nodes.get(node);
  }

  /** The node's gate as stored, or a new one under the settings in force. */
  NodeGate load(String node) {
    PeakGateStateRecord stored = gates.get(node);
    if (stored == null) {
      return new NodeGate(new PeakGate(node, GateRecords.config(cluster(), node(node)), profiles), 0);
    }
    return restore(stored);
  }

  NodeGate restore(PeakGateStateRecord stored) {
    return new NodeGate(PeakGate.restore(GateRecords.gate(stored), profiles), stored.getClockRecordTsMs());
  }

  /** Stores the gate; a gate that knows no task any more is deleted rather than kept empty. */
  void save(NodeGate node) {
    PeakGate gate = node.gate();
    if (gate.isEmpty()) {
      gates.delete(gate.node());
    } else {
      gates.put(gate.node(), GateRecords.gate(gate.snapshot(), node.clockRecordTsMs()));
    }
    probe.gateStatus(gate.node(), gate.status());
  }

  void publish(List<GateDecision> decisions, long timestampMs) {
    for (GateDecision d : decisions) {
      context.forward(new Record<>(d.node() + "/" + d.task(), (Object) GateRecords.decision(d), timestampMs),
          Names.FREEZE_DECISIONS_SINK);
      probe.freezeDecisionPublished(d.action().name());
    }
  }

  void forwardFinished(String operation, Object usageRecord, long timestampMs) {
    context.forward(new Record<>(operation, usageRecord, timestampMs), Names.MEMORY_USAGE_SINK);
  }
}
