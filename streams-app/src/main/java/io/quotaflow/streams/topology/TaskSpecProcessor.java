package io.quotaflow.streams.topology;

import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/** Task specs in: a new spec of a running task republishes its decision; a tombstone withdraws it. */
final class TaskSpecProcessor extends ContextualProcessor<String, TaskSpec, String, CpuDecision> {

  private final int partitions;
  private final TopologyProbe probe;
  private final CpuDecisionMaker decisions = new CpuDecisionMaker();
  private TaskStores stores;

  TaskSpecProcessor(int partitions, TopologyProbe probe) {
    this.partitions = partitions;
    this.probe = probe;
  }

  @Override
  public void init(ProcessorContext<String, CpuDecision> context) {
    super.init(context);
    stores = new TaskStores(context, probe);
  }

  @Override
  public void process(Record<String, TaskSpec> record) {
    TaskKey key = RecordChecks.taskKey(record.key());
    context().recordMetadata().ifPresent(m -> RecordChecks.requirePartition(key.node(), m.partition(), partitions));
    TaskCpuState before = stores.tasks.get(record.key());
    TaskSpec spec = record.value();
    if (spec == null) {
      stores.apply(record.key(), before, decisions.onSpecDeleted(before), record.timestamp());
      return;
    }
    RecordChecks.requireMatchingKey(key, spec.getNode(), spec.getTask());
    RecordChecks.requireNoProblems("task spec", RecordChecks.specProblems(spec));
    CpuDecisionMaker.Outcome outcome = decisions.onSpec(before, spec, record.timestamp(), stores.cluster(), stores.node(key.node()));
    stores.apply(record.key(), before, outcome, record.timestamp());
  }
}
