package io.quotaflow.schemas;

import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.GateTable;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.PoolState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.ConfigBroadcast;
import io.quotaflow.schemas.avro.internal.FinishedTaskUsageRecord;
import io.quotaflow.schemas.avro.internal.PoolPartialReport;
import io.quotaflow.schemas.registry.CompatibilityLevel;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import io.quotaflow.schemas.serde.AvroSerde;
import io.quotaflow.schemas.serde.SubjectNames;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * The one catalogue of Quotaflow's topics (DESIGN "Topics"). Call sites say
 * {@code topics.samples().valueSerde()}, never a topic-name literal, so names and serdes cannot drift
 * apart. Keys are plain UTF-8 strings; values are Avro in the Confluent wire format.
 */
public record Topics(
    Topic<String, CgroupSample> samples,
    Topic<String, NodeStatus> nodes,
    Topic<String, TaskSpec> taskSpecs,
    Topic<String, PoolConfig> poolConfigs,
    Topic<String, ClusterConfig> clusterConfig,
    Topic<String, CpuDecision> cpuDecisions,
    Topic<String, FreezeDecision> freezeDecisions,
    Topic<String, GateTable> gateTables,
    Topic<String, PoolState> poolState,
    Topic<String, EnforcementResult> enforcementResults,
    Topic<byte[], byte[]> dlq,
    Topic<String, ConfigBroadcast> configBroadcast,
    Topic<String, FinishedTaskUsageRecord> memoryUsage,
    Topic<String, PoolPartialReport> poolPartials,
    Settings settings,
    SchemaRegistryClient registry) {

  public static final String DEFAULT_PREFIX = "quotaflow.";
  public static final int DEFAULT_PARTITIONS = 12;
  /** Streams keep 7 days; compacted topics keep every version for 7 days, so replay sees the configs of an incident. */
  public static final Duration RETENTION = Duration.ofDays(7);

  /**
   * @param prefix prepended to every topic name ({@value #DEFAULT_PREFIX} by default)
   * @param partitions partition count of every node-keyed topic; they must all be equal
   * @param autoRegisterSchemas whether serializers register their schema (off where CI registers them)
   */
  public record Settings(String prefix, int partitions, boolean autoRegisterSchemas) {
    public Settings {
      if (prefix == null) {
        throw new IllegalArgumentException("topic prefix must not be null (use \"\" for none)");
      }
      if (partitions < 1) {
        throw new IllegalArgumentException("partitions must be at least 1, was " + partitions);
      }
    }

    public static Settings defaults() {
      return new Settings(DEFAULT_PREFIX, DEFAULT_PARTITIONS, true);
    }
  }

  public static Topics create(Settings settings, SchemaRegistryClient registry) {
    Factory f = new Factory(settings, registry);
    return new Topics(
        f.stream("samples", CgroupSample.class, true,
            // The skew check compares a sample's ts_ms with the time the broker appended it.
            Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime")),
        f.compacted("nodes", NodeStatus.class, true),
        f.compacted("task-specs", TaskSpec.class, true),
        f.singlePartitionCompacted("pool-configs", PoolConfig.class),
        f.singlePartitionCompacted("cluster-config", ClusterConfig.class),
        f.compacted("cpu-decisions", CpuDecision.class, true),
        f.compacted("freeze-decisions", FreezeDecision.class, true),
        f.compacted("gate-tables", GateTable.class, true),
        f.singlePartitionCompacted("pool-state", PoolState.class),
        f.stream("enforcement-results", EnforcementResult.class, true, Map.of()),
        new Topic<>(settings.prefix() + "dlq", Serdes.ByteArray(), Serdes.ByteArray(), settings.partitions(), false,
            Factory.streamConfigs(Map.of())),
        // Internal to the streams app: one copy of each config per partition, co-partitioned with samples.
        new Topic<>(settings.prefix() + "config-broadcast", Serdes.String(), f.serde(ConfigBroadcast.class),
            settings.partitions(), false, Factory.compactedConfigs()),
        // Internal to the streams app: finished tasks' usage re-keyed by operation, for the learned profiles.
        new Topic<>(settings.prefix() + "memory-usage", Serdes.String(), f.serde(FinishedTaskUsageRecord.class),
            settings.partitions(), false, Factory.streamConfigs(Map.of())),
        // Internal to the streams app: each node partition's pool sums once a period, for the one pool processor.
        new Topic<>(settings.prefix() + "pool-partials", Serdes.String(), f.serde(PoolPartialReport.class), 1, false,
            Factory.streamConfigs(Map.of())),
        settings,
        registry);
  }

  /** A serde for any Avro record class (state stores, internal topics), configured like the topics' serdes. */
  public <V extends SpecificRecord> AvroSerde<V> valueSerde(Class<V> type) {
    return new AvroSerde<>(type, registry, false, settings.autoRegisterSchemas());
  }

  /**
   * Sets every value subject to FULL_TRANSITIVE (the contract's level) and registers the current
   * schema under it, so producers that do not auto-register find it and an incompatible change is
   * refused by the registry itself. Idempotent.
   */
  public void registerSchemas(SchemaRegistryClient registry) {
    for (Topic<?, ?> topic : all()) {
      if (topic.valueSerde() instanceof AvroSerde<?> avro) {
        String subject = SubjectNames.topicNameStrategy(topic.name(), false);
        registry.updateCompatibility(subject, CompatibilityLevel.FULL_TRANSITIVE);
        registry.register(subject, avro.schema());
      }
    }
  }

  /** The topics of the contract (DESIGN "Topics"), without the streams app's internal ones. */
  public List<Topic<?, ?>> all() {
    return List.of(samples, nodes, taskSpecs, poolConfigs, clusterConfig, cpuDecisions, freezeDecisions, gateTables,
        poolState, enforcementResults, dlq);
  }

  /** Topics the streams app creates for itself, besides the contract's. */
  public List<Topic<?, ?>> internal() {
    return List.of(configBroadcast, memoryUsage, poolPartials);
  }

  /** Topics read by the same stream tasks: their partition counts must be equal (checked at start). */
  public List<Topic<?, ?>> coPartitioned() {
    java.util.ArrayList<Topic<?, ?>> topics = new java.util.ArrayList<>(nodePartitioned());
    topics.add(configBroadcast);
    return topics;
  }

  /** The topics keyed {@code node} or {@code node/task}: equal partition counts, partitioned by {@link NodePartitioning}. */
  public List<Topic<?, ?>> nodePartitioned() {
    return all().stream().filter(Topic::nodePartitioned).toList();
  }

  private record Factory(Settings settings, SchemaRegistryClient registry) {

    <V extends SpecificRecord> Topic<String, V> stream(String suffix, Class<V> type, boolean byNode, Map<String, String> extra) {
      return new Topic<>(settings.prefix() + suffix, Serdes.String(), serde(type), settings.partitions(), byNode, streamConfigs(extra));
    }

    <V extends SpecificRecord> Topic<String, V> compacted(String suffix, Class<V> type, boolean byNode) {
      return new Topic<>(settings.prefix() + suffix, Serdes.String(), serde(type), settings.partitions(), byNode, compactedConfigs());
    }

    /** Config and pool topics are small and read whole; one partition keeps their order total. */
    <V extends SpecificRecord> Topic<String, V> singlePartitionCompacted(String suffix, Class<V> type) {
      return new Topic<>(settings.prefix() + suffix, Serdes.String(), serde(type), 1, false, compactedConfigs());
    }

    <V extends SpecificRecord> Serde<V> serde(Class<V> type) {
      return new AvroSerde<>(type, registry, false, settings.autoRegisterSchemas());
    }

    static Map<String, String> streamConfigs(Map<String, String> extra) {
      java.util.HashMap<String, String> configs = new java.util.HashMap<>(extra);
      configs.put(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE);
      configs.put(TopicConfig.RETENTION_MS_CONFIG, Long.toString(RETENTION.toMillis()));
      return configs;
    }

    static Map<String, String> compactedConfigs() {
      return Map.of(
          TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
          TopicConfig.MIN_COMPACTION_LAG_MS_CONFIG, Long.toString(RETENTION.toMillis()));
    }
  }
}
