package io.quotaflow.cli;

import io.quotaflow.schemas.NodePartitioning;
import io.quotaflow.schemas.Topic;
import io.quotaflow.testharness.KafkaEnv;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Every record of one node's partition of a topic, in order, read {@code read_committed} from the
 * beginning as a consumer of the streams app must read it; {@link #records()} reads what arrived
 * since the last call, so a test can poll it inside a wait.
 */
public final class NodeTopicTail<V> implements AutoCloseable {

  private static final Duration TO_END_TIMEOUT = Duration.ofSeconds(30);

  private final KafkaConsumer<String, V> consumer;
  private final TopicPartition partition;
  private final List<ConsumerRecord<String, V>> records = new ArrayList<>();

  public NodeTopicTail(KafkaEnv kafka, Topic<String, V> topic, String node) {
    Map<String, Object> props = new HashMap<>(kafka.clientConfig());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    consumer = new KafkaConsumer<>(props, topic.keySerde().deserializer(), topic.valueSerde().deserializer());
    partition = new TopicPartition(topic.name(), NodePartitioning.partitionOfNode(node, topic.partitions()));
    consumer.assign(List.of(partition));
    consumer.seekToBeginning(List.of(partition));
  }

  /** Every record so far, oldest first. */
  public List<ConsumerRecord<String, V>> records() {
    for (ConsumerRecord<String, V> record : consumer.poll(Duration.ofMillis(100))) {
      records.add(record);
    }
    return List.copyOf(records);
  }

  /** Every record up to the partition's end as of now (its last stable offset), oldest first. */
  public List<ConsumerRecord<String, V>> recordsToEnd() {
    long end = consumer.endOffsets(List.of(partition), TO_END_TIMEOUT).get(partition);
    long deadline = System.nanoTime() + TO_END_TIMEOUT.toNanos();
    while (consumer.position(partition) < end) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("could not read " + partition + " to offset " + end);
      }
      records();
    }
    return List.copyOf(records);
  }

  /** The values so far whose key is {@code key}, oldest first. */
  public List<V> values(String key) {
    return records().stream().filter(r -> key.equals(r.key()) && r.value() != null).map(ConsumerRecord::value).toList();
  }

  @Override
  public void close() {
    consumer.close(Duration.ofSeconds(5));
  }
}
