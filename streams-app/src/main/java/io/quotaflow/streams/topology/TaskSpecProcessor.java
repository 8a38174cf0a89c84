package io.quotaflow.streams.topology;

import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import org.apache.kafka.streams.processor.api.Record;

/** Task specs in: a new spec of a running task republishes its decision; a tombstone withdraws it. */
final class TaskSpecProcessor extends TaskStateProcessor<TaskSpec> {

  TaskSpecProcessor(int partitions, TopologyProbe probe) {
    super(partitions, probe);
  }

  @Override
  public void process(Record<String, TaskSpec> record) {
    // Checked before it came here (InputCheck, RecordChecks.requireValidSpec).
    beforeEvent(record.timestamp());
    TaskCpuState before = stores.tasks.get(record.key());
    TaskSpec spec = record.value();
    if (spec == null) {
      stores.apply(record.key(), before, decisions.onSpecDeleted(before), record.timestamp());
      return;
    }
    CpuDecisionMaker.Outcome outcome = decisions.onSpec(before, spec, record.timestamp(), stores.cluster(), stores.node(spec.getNode()),
        stores::capRatio);
    stores.apply(record.key(), before, outcome, record.timestamp());
  }
}
