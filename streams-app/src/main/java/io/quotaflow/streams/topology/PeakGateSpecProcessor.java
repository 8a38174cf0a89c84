package io.quotaflow.streams.topology;

import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.streams.engine.memory.PeakGate;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Task specs in: a spec tells the gate a task's normal and peak, whether it is interactive and its
 * operation; a tombstone stops the gate judging the task (and thaws it if it waited).
 */
final class PeakGateSpecProcessor extends GateProcessor<TaskSpec> {

  PeakGateSpecProcessor(TopologyProbe probe) {
    super(probe);
  }

  @Override
  public void process(Record<String, TaskSpec> record) {
    TaskKey key = RecordChecks.taskKey(record.key());
    NodeGate node = stores.load(key.node());
    PeakGate gate = node.gate();
    if (record.value() == null) {
      stores.publish(gate.onSpecRemoved(key.task(), node.nowMs()), record.timestamp());
    } else {
      stores.publish(gate.onSpec(GateRecords.spec(record.value()), node.nowMs()), record.timestamp());
    }
    stores.save(node);
  }
}
