package io.quotaflow.streams.topology;

import io.quotaflow.schemas.Ids;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.internal.BroadcastKind;
import io.quotaflow.schemas.avro.internal.ConfigBroadcast;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Reads a single-partition config topic and forwards each valid config, once, to the broadcast
 * sink, whose partitioner copies it to every partition with the original timestamp. An invalid
 * config is rejected (DLQ) before it is broadcast, so the last good one stays in force everywhere.
 */
final class ConfigBroadcaster<V> extends ContextualProcessor<String, V, String, ConfigBroadcast> {

  private final BroadcastKind kind;
  private KeyValueStore<String, ConfigBroadcast> poolConfigs;

  private ConfigBroadcaster(BroadcastKind kind) {
    this.kind = kind;
  }

  static ConfigBroadcaster<ClusterConfig> cluster() {
    return new ConfigBroadcaster<>(BroadcastKind.CLUSTER_CONFIG);
  }

  static ConfigBroadcaster<PoolConfig> pool() {
    return new ConfigBroadcaster<>(BroadcastKind.POOL_CONFIG);
  }

  @Override
  public void init(ProcessorContext<String, ConfigBroadcast> context) {
    super.init(context);
    poolConfigs = context.getStateStore(Names.POOL_CONFIG_STORE);
  }

  @Override
  public void process(Record<String, V> record) {
    String id = record.key();
    if (!Ids.isValid(id)) {
      throw new RejectedRecordException("invalid " + kind + " key '" + id + "': ids match " + Ids.PATTERN_TEXT);
    }
    ConfigBroadcast.Builder broadcast = ConfigBroadcast.newBuilder().setKind(kind).setId(id);
    if (record.value() instanceof ClusterConfig cluster) {
      RecordChecks.requireNoProblems("cluster config", ClusterConfigValidator.problems(cluster));
      if (!cluster.getCluster().equals(id)) {
        throw new RejectedRecordException("key '" + id + "' does not match cluster '" + cluster.getCluster() + "'");
      }
      broadcast.setClusterConfig(cluster);
    } else if (record.value() instanceof PoolConfig pool) {
      RecordChecks.requireNoProblems("pool config", RecordChecks.poolProblems(id, pool));
      broadcast.setPoolConfig(pool);
    }
    // A tombstone broadcasts an empty config: the cluster falls back to defaults, the pool is removed.
    ConfigBroadcast config = broadcast.build();
    // The pool processor beside it reads the same configs, in the same order as the partitions do.
    String storeKey = kind == BroadcastKind.CLUSTER_CONFIG ? TaskStores.CLUSTER_KEY : TaskStores.POOL_KEY_PREFIX + id;
    if (record.value() == null) {
      poolConfigs.delete(storeKey);
    } else {
      poolConfigs.put(storeKey, config);
    }
    context().forward(record.withKey(keyOf(kind, id)).withValue(config));
  }

  /** The key of a broadcast record, {@code KIND/id}: built here for every kind (configs, pool caps, profiles). */
  static String keyOf(BroadcastKind kind, String id) {
    return kind.name() + "/" + id;
  }
}
