package io.quotaflow.streams.topology;

import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.internal.BroadcastKind;
import io.quotaflow.schemas.avro.internal.ConfigBroadcast;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * This partition's copy of a broadcast config in: stored, and a new cluster config republishes
 * every task whose decision it changes. Configs were validated before they were broadcast.
 */
final class ConfigApplier extends TaskStateProcessor<ConfigBroadcast> {

  ConfigApplier(int partitions, TopologyProbe probe) {
    super(partitions, probe);
  }

  @Override
  public void process(Record<String, ConfigBroadcast> record) {
    ConfigBroadcast config = record.value();
    if (config == null) {
      return;
    }
    if (config.getKind() == BroadcastKind.MEMORY_PROFILE) {
      // Kept for the peak gate: a task without a declared normal is judged by it from its next sample on.
      if (config.getMemoryProfile() == null) {
        stores.configs.delete(TaskStores.PROFILE_KEY_PREFIX + config.getId());
      } else {
        stores.configs.put(TaskStores.PROFILE_KEY_PREFIX + config.getId(), config);
      }
      return;
    }
    if (config.getKind() == BroadcastKind.POOL_CONFIG) {
      String key = TaskStores.POOL_KEY_PREFIX + config.getId();
      if (config.getPoolConfig() == null) {
        stores.configs.delete(key);
      } else {
        stores.configs.put(key, config);
      }
      return;
    }
    ClusterConfig before = stores.cluster();
    if (config.getClusterConfig() == null) {
      stores.configs.delete(TaskStores.CLUSTER_KEY);
    } else {
      stores.configs.put(TaskStores.CLUSTER_KEY, config);
    }
    ClusterConfig after = stores.cluster();
    if (after.equals(before)) {
      return;
    }
    List<KeyValue<String, TaskCpuState>> tasks = new ArrayList<>();
    try (KeyValueIterator<String, TaskCpuState> all = stores.tasks.all()) {
      all.forEachRemaining(tasks::add);
    }
    for (KeyValue<String, TaskCpuState> task : tasks) {
      String node = task.value.getNode();
      stores.apply(task.key, task.value, decisions.onEnvironmentChange(task.value, CpuDecisionMaker.Event.CONFIG_CHANGED,
          record.timestamp(), after, stores.node(node)), record.timestamp());
    }
  }
}
