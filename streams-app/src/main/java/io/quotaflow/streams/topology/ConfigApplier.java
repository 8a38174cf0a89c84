package io.quotaflow.streams.topology;

import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.internal.ConfigBroadcast;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import org.apache.kafka.streams.KeyValue;

/**
 * This partition's copy of a broadcast config in: stored, and a new cluster config republishes
 * every task whose decision it changes. Configs were validated before they were broadcast.
 */
final class ConfigApplier extends CpuInput<ConfigBroadcast> {

  ConfigApplier(TaskStores stores, CpuDecisionMaker decisions, TopologyProbe probe) {
    super(stores, decisions, probe);
  }

  @Override
  void process(String key, ConfigBroadcast config, long timestampMs) {
    if (config == null) {
      return;
    }
    // No pool report here: a broadcast changes no task's reported limit, and it is derived from other
    // records, so when it arrives among the samples depends on timing, which the reports must not.
    String id = config.getId();
    switch (config.getKind()) {
      // Taken up at each task's next tick (DESIGN §3): no decision here.
      case POOL_CAP -> stores.keepConfig(TaskStores.CAP_KEY_PREFIX + id, config, config.getPoolCap() != null);
      // For the peak gate: a task without a declared normal is judged by it from its next sample on.
      case MEMORY_PROFILE -> stores.keepConfig(TaskStores.PROFILE_KEY_PREFIX + id, config, config.getMemoryProfile() != null);
      case POOL_CONFIG -> stores.keepConfig(TaskStores.POOL_KEY_PREFIX + id, config, config.getPoolConfig() != null);
      case CLUSTER_CONFIG -> applyCluster(config, timestampMs);
      default -> throw new IllegalStateException("unknown broadcast kind " + config.getKind());
    }
  }

  /** A new cluster config republishes every task whose decision it changes. */
  private void applyCluster(ConfigBroadcast config, long timestampMs) {
    ClusterConfig before = stores.cluster();
    stores.keepConfig(TaskStores.CLUSTER_KEY, config, config.getClusterConfig() != null);
    ClusterConfig after = stores.cluster();
    if (after.equals(before)) {
      return;
    }
    for (KeyValue<String, TaskCpuState> task : stores.tasks(state -> true)) {
      String node = task.value.getNode();
      stores.apply(task.key, task.value, decisions.onEnvironmentChange(task.value, CpuDecisionMaker.Event.CONFIG_CHANGED,
          timestampMs, after, stores.node(node), stores::capRatio), timestampMs);
    }
  }
}
