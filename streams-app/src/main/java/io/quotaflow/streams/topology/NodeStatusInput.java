package io.quotaflow.streams.topology;

import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import org.apache.kafka.streams.KeyValue;

/** Node status in: kept for its tasks' hard limits and cgroup layout; a changed layout republishes the node's tasks. */
final class NodeStatusInput extends CpuInput<NodeStatus> {

  NodeStatusInput(TaskStores stores, CpuDecisionMaker decisions, TopologyProbe probe) {
    super(stores, decisions, probe);
  }

  @Override
  void process(String node, NodeStatus status, long timestampMs) {
    // Checked before it came here (InputCheck, RecordChecks.requireValidNodeStatus).
    stores.beforeEvent(timestampMs);
    NodeStatus before = stores.node(node);
    stores.keepNode(node, status);
    if (status == null || before != null && before.getThreadsPerCore() == status.getThreadsPerCore()) {
      return; // gone, or the periodic refresh: nothing a decision depends on changed (the cgroup version is the enforcer's)
    }
    for (KeyValue<String, TaskCpuState> task : stores.tasksOf(node)) {
      stores.apply(task.key, task.value, decisions.onEnvironmentChange(task.value, CpuDecisionMaker.Event.NODE_CHANGED,
          timestampMs, stores.cluster(), status, stores::capRatio), timestampMs);
    }
  }
}
