package io.quotaflow.testharness;

import io.quotaflow.schemas.GroupLag;
import io.quotaflow.schemas.Topic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.opentest4j.AssertionFailedError;

/**
 * Waiting for Kafka in tests without sleeping for a guessed time: each wait polls a condition (the
 * records that arrived, the group's committed offsets) until it holds or a deadline passes, then
 * fails saying what it saw.
 */
public final class KafkaWait {
  private static final Duration FIRST_PAUSE = Duration.ofMillis(10);
  private static final Duration MAX_PAUSE = Duration.ofMillis(200);

  private KafkaWait() {}

  /**
   * Reads {@code topic} from the beginning of every partition until at least {@code count}
   * records arrived; returns all read. Reads {@code read_committed}, as consumers of the streams
   * app's output do.
   */
  public static <K, V> List<ConsumerRecord<K, V>> records(KafkaEnv env, String topic, Deserializer<K> keys,
      Deserializer<V> values, int count, Duration timeout) {
    return recordsUntil(env, topic, keys, values, seen -> seen.size() >= count, "at least " + count + " records", timeout);
  }

  /** {@link #records} with the topic's own serdes. */
  public static <K, V> List<ConsumerRecord<K, V>> records(KafkaEnv env, Topic<K, V> topic, int count, Duration timeout) {
    return records(env, topic.name(), topic.keySerde().deserializer(), topic.valueSerde().deserializer(), count, timeout);
  }

  /**
   * Reads {@code topic} from the beginning until {@code done} holds for the records read so far.
   *
   * @param expectation what {@code done} waits for, for the failure message
   */
  public static <K, V> List<ConsumerRecord<K, V>> recordsUntil(KafkaEnv env, String topic, Deserializer<K> keys,
      Deserializer<V> values, Predicate<List<ConsumerRecord<K, V>>> done, String expectation, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Map<String, Object> config = new HashMap<>(env.clientConfig());
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    List<ConsumerRecord<K, V>> seen = new ArrayList<>();
    try (KafkaConsumer<K, V> consumer = new KafkaConsumer<>(config, keys, values)) {
      List<TopicPartition> partitions = partitions(consumer, topic, deadline);
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      while (!done.test(seen)) {
        if (System.nanoTime() > deadline) {
          throw new AssertionFailedError("expected " + expectation + " in topic " + topic + " within " + timeout
              + ", read " + seen.size() + ": " + summary(seen));
        }
        consumer.poll(Duration.ofMillis(100)).forEach(seen::add);
      }
    }
    return seen;
  }

  /**
   * Waits until consumer group {@code groupId} has committed, on every partition of {@code topics}
   * that holds records, an offset at the partition's end (its last stable offset): the group has
   * processed everything written so far. A group that committed nothing has not caught up.
   */
  public static void consumerGroupCaughtUp(KafkaEnv env, String groupId, Collection<String> topics, Duration timeout) {
    try (Admin admin = env.admin()) {
      String[] lag = {"not checked yet"};
      until(timeout, () -> "consumer group " + groupId + " to catch up on " + topics + " (lagging: " + lag[0] + ")", () -> {
        Map<TopicPartition, Long> lagging = GroupLag.of(admin, groupId, topics);
        lag[0] = lagging.toString();
        return lagging.isEmpty();
      });
    }
  }

  /** Polls {@code condition} until it holds, pausing briefly between tries; fails after {@code timeout}. */
  public static void until(Duration timeout, String what, BooleanSupplier condition) {
    until(timeout, () -> what, condition);
  }

  private static void until(Duration timeout, java.util.function.Supplier<String> what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    long pause = FIRST_PAUSE.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionFailedError("timed out after " + timeout + " waiting for " + what.get());
      }
      LockSupport.parkNanos(pause); // a pause between two checks, not a guess at how long the wait is
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + what.get());
      }
      pause = Math.min(pause * 2, MAX_PAUSE.toNanos());
    }
  }

  private static List<TopicPartition> partitions(KafkaConsumer<?, ?> consumer, String topic, long deadline) {
    List<TopicPartition> partitions = new ArrayList<>();
    until(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())), "topic " + topic + " to exist", () -> {
      List<PartitionInfo> infos;
      try {
        infos = consumer.partitionsFor(topic, Duration.ofSeconds(1));
      } catch (org.apache.kafka.common.errors.TimeoutException e) {
        return false; // no metadata yet: ask again
      }
      infos.forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
      return !partitions.isEmpty();
    });
    return partitions;
  }

  private static String summary(List<? extends ConsumerRecord<?, ?>> records) {
    return records.stream().limit(5).map(r -> r.partition() + "@" + r.offset() + " " + r.key() + "=" + r.value())
        .collect(Collectors.joining(", ", "[", records.size() > 5 ? ", ...]" : "]"));
  }
}
