package io.quotaflow.streams.topology;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler;

/**
 * The one place the streams app's Kafka Streams settings are made. Defaults go in with
 * {@code putIfAbsent} so that anything the operator passes wins; the settings that decide latency
 * and safety are written out with the reason for each.
 */
public final class StreamsConfigFactory {

  public static final String DEFAULT_APPLICATION_ID = "quotaflow-streams";

  /**
   * Under EOS a read_committed enforcer sees a decision only once the commit after its sample is done, so the
   * interval bounds latency. 50 ms: at 20,000 samples/s on 2 cores p99 sample → decision 97–124 ms against
   * 158–203 ms at 100 ms, at the same stream-thread CPU per sample (docs/benchmarks.md); what it costs is twice the
   * transactions, and their markers, on the brokers (docs/scaling.md).
   */
  public static final long DEFAULT_COMMIT_INTERVAL_MS = 50;

  /**
   * The settings an operator's {@code --streams-config} may not give, with why: the app sets them
   * for correctness (exactly-once decisions, the DLQ, the live-state address, serdes from the topic
   * catalogue), or a flag gives them, so a value has one way in.
   */
  public static final Map<String, String> APP_OWNED = ownedSettings();

  private StreamsConfigFactory() {}

  private static Map<String, String> ownedSettings() {
    Map<String, String> owned = new LinkedHashMap<>();
    String correctness = "is set by the app: ";
    owned.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, correctness + "each decision is published exactly once (exactly_once_v2)");
    owned.put(StreamsConfig.APPLICATION_SERVER_CONFIG, correctness + "it is where this instance serves live state; use --advertised-host"
        + " and --http-port");
    owned.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, correctness + "every topic's serdes come from the topic catalogue");
    owned.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, correctness + "every topic's serdes come from the topic catalogue");
    owned.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, correctness + "poison records go to the catalogue's DLQ topic");
    owned.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, correctness + "poison records go to the DLQ");
    owned.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, correctness + "poison records go to the DLQ");
    owned.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, correctness + "store and changelog names are part of the"
        + " deployment");
    owned.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, correctness + "all stores share one memory budget; use --rocksdb-total-bytes");
    owned.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "has a flag: use --bootstrap");
    owned.put(StreamsConfig.APPLICATION_ID_CONFIG, "has a flag: use --application-id");
    owned.put(StreamsConfig.STATE_DIR_CONFIG, "has a flag: use --state-dir");
    owned.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, "has a flag: use --standby-replicas");
    owned.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "has a flag: use --threads");
    owned.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "has a flag: use --commit-interval");
    owned.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, "has a flag: use --replication-factor");
    owned.put(BoundedRocksDbConfig.TOTAL_BYTES_CONFIG, "has a flag: use --rocksdb-total-bytes");
    return Collections.unmodifiableMap(owned);
  }

  /**
   * Refuses an operator setting the app owns ({@link #APP_OWNED}).
   *
   * @throws IllegalArgumentException naming the first such key and why
   */
  public static void requireOperatorSettable(Collection<String> keys) {
    for (String key : keys) {
      String why = APP_OWNED.get(key.trim());
      if (why != null) {
        throw new IllegalArgumentException(key + " " + why);
      }
    }
  }

  /**
   * @param bootstrap Kafka bootstrap servers
   * @param dlqTopic the dead-letter topic ({@code topics.dlq().name()})
   * @param overrides operator settings (from --kafka-config, environment, flags); they win
   */
  public static Properties create(String bootstrap, String dlqTopic, Map<String, ?> overrides) {
    Map<String, Object> config = new HashMap<>(overrides);
    config.putIfAbsent(StreamsConfig.APPLICATION_ID_CONFIG, DEFAULT_APPLICATION_ID);
    config.putIfAbsent(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    // Decisions drive cgroups: a decision must be published exactly once with the state that made it.
    config.putIfAbsent(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    config.putIfAbsent(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, DEFAULT_COMMIT_INTERVAL_MS);
    // Streams raises its producers' linger.ms to 100; decisions should not wait for batches that long.
    putProducerDefault(config, ProducerConfig.LINGER_MS_CONFIG, 5);
    // No compression by default: lz4 made the changelogs ~5x smaller but cost the stream threads ~8 % more CPU per
    // sample in bench cpu's latency runs (docs/benchmarks.md); an operator short of broker bandwidth can set it.
    // 0, not -1: a task's input partitions (samples, specs, configs) are merged in timestamp order over all
    // the data the broker has, which a restart or a replay always has. Above 0, a task whose specs or
    // config partition has just drained waits that long for more before its samples go on: 500 ms cost
    // p99 1.2 s instead of 0.27 s at 20,000 samples/s (docs/benchmarks.md).
    config.putIfAbsent(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, 0L);
    // Poison records go to the DLQ inside the EOS transaction; the app keeps running.
    config.putIfAbsent(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, dlqTopic);
    config.putIfAbsent(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, RetryingDeserializationHandler.class);
    config.putIfAbsent(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndContinueProcessingExceptionHandler.class);
    config.putIfAbsent(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
    // Off-heap memory of all stores stays within one budget, however many partitions this instance holds.
    config.putIfAbsent(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDbConfig.class);
    // Store and changelog names are part of the deployment: an unnamed one would be renamed by a topology change.
    config.putIfAbsent(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
    Properties properties = new Properties();
    properties.putAll(config);
    return properties;
  }

  /**
   * A default for the app's producers that the operator may give either way: Kafka Streams lets a {@code
   * producer.}-prefixed key win over the plain one, so the default goes in prefixed only when neither is given.
   */
  private static void putProducerDefault(Map<String, Object> config, String key, Object value) {
    if (!config.containsKey(key)) {
      config.putIfAbsent(StreamsConfig.producerPrefix(key), value);
    }
  }
}
