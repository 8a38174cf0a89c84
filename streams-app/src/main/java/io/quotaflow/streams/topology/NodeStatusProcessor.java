package io.quotaflow.streams.topology;

import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;

/** Node status in: kept for its tasks' hard limits and cgroup layout; a changed layout republishes the node's tasks. */
final class NodeStatusProcessor extends TaskStateProcessor<NodeStatus> {

  NodeStatusProcessor(int partitions, TopologyProbe probe) {
    super(partitions, probe);
  }

  @Override
  public void process(Record<String, NodeStatus> record) {
    // Checked before it came here (InputCheck, RecordChecks.requireValidNodeStatus).
    String node = record.key();
    beforeEvent(record.timestamp());
    NodeStatus status = record.value();
    if (status == null) {
      stores.nodes.delete(node);
      return;
    }
    NodeStatus before = stores.nodes.get(node);
    stores.nodes.put(node, status);
    if (before != null && before.getThreadsPerCore() == status.getThreadsPerCore()) {
      return; // the periodic refresh: nothing a decision depends on changed (the cgroup version is the enforcer's)
    }
    List<KeyValue<String, TaskCpuState>> tasks = new ArrayList<>();
    try (KeyValueIterator<String, TaskCpuState> range = stores.tasks.prefixScan(TaskKey.nodePrefix(node), new org.apache.kafka.common.serialization.StringSerializer())) {
      range.forEachRemaining(tasks::add);
    }
    for (KeyValue<String, TaskCpuState> task : tasks) {
      stores.apply(task.key, task.value, decisions.onEnvironmentChange(task.value, CpuDecisionMaker.Event.NODE_CHANGED,
          record.timestamp(), stores.cluster(), status, stores::capRatio), record.timestamp());
    }
  }
}
