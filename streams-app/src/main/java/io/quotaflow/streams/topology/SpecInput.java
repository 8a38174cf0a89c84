package io.quotaflow.streams.topology;

import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.TaskCpuState;

/** Task specs in: a new spec of a running task republishes its decision; a tombstone withdraws it. */
final class SpecInput extends CpuInput<TaskSpec> {

  SpecInput(TaskStores stores, CpuDecisionMaker decisions, TopologyProbe probe) {
    super(stores, decisions, probe);
  }

  @Override
  void process(String key, TaskSpec spec, long timestampMs) {
    // Checked before it came here (InputCheck, RecordChecks.requireValidSpec).
    stores.beforeEvent(timestampMs);
    TaskCpuState before = stores.task(key);
    if (spec == null) {
      stores.apply(key, before, decisions.onSpecDeleted(before), timestampMs);
      return;
    }
    CpuDecisionMaker.Outcome outcome = decisions.onSpec(before, stores.shared(spec), timestampMs, stores.cluster(),
        stores.node(spec.getNode()), stores::capRatio);
    stores.apply(key, before, outcome, timestampMs);
  }
}
