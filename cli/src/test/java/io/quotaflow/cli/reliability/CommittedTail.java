package io.quotaflow.cli.reliability;

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
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * Every partition of one of the streams app's output topics, read {@code read_committed} from the
 * beginning as enforcers read it, each record with the wall-clock time the test received it: what a
 * takeover time is measured on. {@link #poll} reads what arrived since the last call.
 */
final class CommittedTail<V> implements AutoCloseable {

  /** A record and when it arrived here, epoch ms. */
  record Arrival<V>(ConsumerRecord<String, V> record, long arrivedMs) {}

  private static final Duration TO_END_TIMEOUT = Duration.ofSeconds(60);

  private final KafkaConsumer<String, V> consumer;
  private final List<TopicPartition> partitions = new ArrayList<>();
  private final List<Arrival<V>> arrivals = new ArrayList<>();

  CommittedTail(KafkaEnv kafka, Topic<String, V> topic) {
    Map<String, Object> props = new HashMap<>(kafka.clientConfig());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50); // arrival times within tens of ms of the commit
    consumer = new KafkaConsumer<>(props, topic.keySerde().deserializer(), topic.valueSerde().deserializer());
    consumer.partitionsFor(topic.name(), TO_END_TIMEOUT).forEach(p -> partitions.add(new TopicPartition(topic.name(), p.partition())));
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
  }

  /** Every record so far, in the order they arrived. */
  List<Arrival<V>> poll() {
    for (ConsumerRecord<String, V> record : consumer.poll(Duration.ofMillis(100))) {
      arrivals.add(new Arrival<>(record, System.currentTimeMillis()));
    }
    return List.copyOf(arrivals);
  }

  /** Every record up to each partition's end as of now (its last stable offset: no open transaction's records). */
  List<Arrival<V>> toEnd() {
    Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, TO_END_TIMEOUT);
    long deadline = System.nanoTime() + TO_END_TIMEOUT.toNanos();
    while (ends.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("could not read " + partitions + " to " + ends);
      }
      poll();
    }
    return List.copyOf(arrivals);
  }

  @Override
  public void close() {
    consumer.close();
  }
}
