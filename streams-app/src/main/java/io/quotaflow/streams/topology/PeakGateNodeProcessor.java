package io.quotaflow.streams.topology;

import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.internal.PeakGateStateRecord;
import io.quotaflow.streams.engine.memory.PeakGate;
import io.quotaflow.streams.engine.memory.PeakGateConfig;
import org.apache.kafka.streams.processor.api.Record;

/** Node status in: the node's memory total is BUDGET's limit; a changed total may admit waiting tasks at once. */
final class PeakGateNodeProcessor extends GateProcessor<NodeStatus> {

  PeakGateNodeProcessor(TopologyProbe probe) {
    super(probe);
  }

  @Override
  public void process(Record<String, NodeStatus> record) {
    PeakGateStateRecord stored = stores.gates.get(record.key());
    if (stored == null) {
      return; // a gate made later starts from the status stored by then
    }
    NodeGate node = stores.restore(stored);
    PeakGate gate = node.gate();
    PeakGateConfig config = GateRecords.config(stores.cluster(), record.value());
    if (config.equals(gate.config())) {
      return; // the periodic refresh: same memory
    }
    stores.publish(gate.onConfig(config, node.nowMs()), record.timestamp());
    stores.save(node);
  }
}
