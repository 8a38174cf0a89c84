package io.quotaflow.streams.topology;

import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.internal.BroadcastKind;
import io.quotaflow.schemas.avro.internal.ConfigBroadcast;
import io.quotaflow.schemas.avro.internal.PeakGateStateRecord;
import io.quotaflow.streams.engine.memory.PeakGate;
import io.quotaflow.streams.engine.memory.PeakGateConfig;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * This partition's copy of a cluster config in: every gate of the partition takes the new gating
 * settings at once (to OFF: every waiting task is thawed; more slots or budget: queue heads are
 * admitted now rather than at their node's next sample).
 */
final class PeakGateConfigProcessor extends GateProcessor<ConfigBroadcast> {

  PeakGateConfigProcessor(TopologyProbe probe) {
    super(probe);
  }

  @Override
  public void process(Record<String, ConfigBroadcast> record) {
    if (record.value() == null || record.value().getKind() != BroadcastKind.CLUSTER_CONFIG) {
      return;
    }
    ClusterConfig cluster = stores.cluster(); // already updated by the config applier
    List<PeakGateStateRecord> all = new ArrayList<>();
    try (KeyValueIterator<String, PeakGateStateRecord> gates = stores.gates.all()) {
      gates.forEachRemaining(kv -> all.add(kv.value));
    }
    for (PeakGateStateRecord stored : all) {
      NodeGate node = stores.restore(stored);
      PeakGate gate = node.gate();
      PeakGateConfig config = GateRecords.config(cluster, stores.node(gate.node()));
      if (!config.equals(gate.config())) {
        stores.publish(gate.onConfig(config, node.nowMs()), record.timestamp());
        stores.save(node);
      }
    }
  }
}
