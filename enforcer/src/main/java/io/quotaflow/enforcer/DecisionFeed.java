package io.quotaflow.enforcer;

import io.quotaflow.schemas.NodePartitioning;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The enforcer's reading side: exactly the node's partition of {@code cpu-decisions}, of
 * {@code freeze-decisions} and of {@code gate-tables}, and {@code cluster-config}, assigned directly (no consumer group, no
 * committed offsets: every start reads the compacted topics from the beginning), read_committed
 * so only the streams app's committed transactions are seen.
 *
 * <p>Values are fetched as bytes and decoded here, record by record, so a record that does not
 * decode is reported and skipped instead of wedging the consumer; a registry outage (retriable)
 * rewinds the partition to that record to be read again.
 */
final class DecisionFeed implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DecisionFeed.class);
  private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(10);

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Topics topics;
  private final String node;
  private Map<TopicPartition, Long> endAtStart = Map.of();
  private volatile List<TopicPartition> assigned = List.of();
  private boolean retryRequested;

  DecisionFeed(Map<String, Object> clientProperties, Topics topics, String node) {
    Map<String, Object> config = new HashMap<>(clientProperties);
    // Only what the streams app committed: an aborted transaction's decisions never reach a cgroup.
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
    // No group: partitions are assigned by node, and the position is never committed.
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
    config.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "quotaflow-enforcer-" + node);
    this.consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    this.topics = topics;
    this.node = node;
  }

  /**
   * Assigns the node's partitions and notes the end offsets to catch up to; false while a topic
   * does not exist yet (the streams app creates them), so the caller can wait and ask again.
   */
  boolean assign() {
    List<TopicPartition> partitions = new ArrayList<>();
    for (Topic<String, ?> topic : List.of(topics.cpuDecisions(), topics.freezeDecisions(), topics.gateTables())) {
      List<PartitionInfo> infos = partitionsFor(topic.name());
      if (infos.isEmpty()) {
        return false;
      }
      partitions.add(new TopicPartition(topic.name(), NodePartitioning.partitionOfNode(node, infos.size())));
    }
    List<PartitionInfo> config = partitionsFor(topics.clusterConfig().name());
    if (config.isEmpty()) {
      return false;
    }
    config.forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    try {
      // read_committed: the last stable offset, so catching up never waits on an open transaction's records.
      endAtStart = consumer.endOffsets(partitions, METADATA_TIMEOUT);
    } catch (TimeoutException e) {
      return false; // the broker is not answering: asked again
    }
    assigned = List.copyOf(partitions);
    LOG.info("Enforcer for node {} reads {} from the beginning; catching up to {}", node, partitions, endAtStart);
    return true;
  }

  List<TopicPartition> assigned() {
    return assigned;
  }

  private List<PartitionInfo> partitionsFor(String topic) {
    try {
      List<PartitionInfo> infos = consumer.partitionsFor(topic, METADATA_TIMEOUT);
      return infos == null ? List.of() : infos;
    } catch (TimeoutException e) {
      return List.of();
    }
  }

  /** Whether every partition has been read up to the end offsets noted at {@link #assign()}. */
  boolean caughtUp() {
    for (Map.Entry<TopicPartition, Long> end : endAtStart.entrySet()) {
      try {
        if (consumer.position(end.getKey(), METADATA_TIMEOUT) < end.getValue()) {
          return false;
        }
      } catch (TimeoutException e) {
        return false; // the broker is not answering: polling goes on, and so does the question
      }
    }
    return true;
  }

  /** The next records, decoded, in partition order. */
  List<FeedRecord> poll(Duration timeout) {
    retryRequested = false;
    ConsumerRecords<byte[], byte[]> records = consumer.poll(timeout);
    List<FeedRecord> out = new ArrayList<>(records.count());
    Set<TopicPartition> rewound = new HashSet<>();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      TopicPartition tp = new TopicPartition(record.topic(), record.partition());
      if (rewound.contains(tp)) {
        continue;
      }
      try {
        out.add(decode(record));
      } catch (RetriableException e) {
        // The registry is down, the record is fine: read it again later rather than skip a decision.
        LOG.warn("Cannot decode {} at offset {} yet, will retry: {}", tp, record.offset(), e.getMessage());
        consumer.seek(tp, record.offset());
        rewound.add(tp);
        retryRequested = true;
      }
    }
    return out;
  }

  /** The last poll rewound a partition for a retriable error: pause before polling again. */
  boolean retryRequested() {
    return retryRequested;
  }

  /** Makes a blocked {@link #poll} return at once (from another thread), for shutdown. */
  void wakeup() {
    consumer.wakeup();
  }

  private FeedRecord decode(ConsumerRecord<byte[], byte[]> record) {
    DecisionRef ref = new DecisionRef(record.topic(), record.partition(), record.offset(), record.timestamp());
    String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
    FeedRecord.Kind kind = kindOf(record.topic());
    try {
      return switch (kind) {
        case CPU -> new FeedRecord.Cpu(ref, key, value(topics.cpuDecisions(), record));
        case FREEZE -> new FeedRecord.Freeze(ref, key, value(topics.freezeDecisions(), record));
        case CLUSTER -> new FeedRecord.Cluster(ref, key, value(topics.clusterConfig(), record));
        case GATE -> new FeedRecord.Gate(ref, key, value(topics.gateTables(), record));
      };
    } catch (SerializationException e) {
      return new FeedRecord.Undecodable(ref, key, kind, e.getMessage());
    }
  }

  private FeedRecord.Kind kindOf(String topic) {
    if (topic.equals(topics.cpuDecisions().name())) {
      return FeedRecord.Kind.CPU;
    }
    if (topic.equals(topics.freezeDecisions().name())) {
      return FeedRecord.Kind.FREEZE;
    }
    if (topic.equals(topics.gateTables().name())) {
      return FeedRecord.Kind.GATE;
    }
    return FeedRecord.Kind.CLUSTER;
  }

  private static <V> V value(Topic<String, V> topic, ConsumerRecord<byte[], byte[]> record) {
    if (record.value() == null) {
      return null; // tombstones are not framed
    }
    Deserializer<V> deserializer = topic.valueSerde().deserializer();
    return deserializer.deserialize(record.topic(), record.headers(), record.value());
  }

  @Override
  public void close() {
    consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
  }
}
