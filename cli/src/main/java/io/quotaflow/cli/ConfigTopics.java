package io.quotaflow.cli;

import io.quotaflow.process.ClusterConnection;
import io.quotaflow.process.KafkaRefusal;
import io.quotaflow.process.ProcessException;
import io.quotaflow.schemas.NodePartitioner;
import io.quotaflow.schemas.NodePartitioning;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.registry.RegistryUnavailableException;
import io.quotaflow.schemas.registry.SchemaRegistryException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiPredicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;

/**
 * What the operator tools do with a compacted topic: read the latest value of each key, and
 * publish one record (idempotently, node-partitioned where the topic is). Failures become one-line
 * {@link CliException}s: an operator needs to know the broker is unreachable, not where in the client it noticed.
 */
final class ConfigTopics {

  private static final Duration TIMEOUT = Duration.ofSeconds(15);

  private final Map<String, Object> clientProperties;

  ConfigTopics(Map<String, Object> clientProperties) {
    this.clientProperties = clientProperties;
  }

  /**
   * The latest value per key (tombstones remove the key), read to the end offsets as they were
   * when reading started. {@code node} limits a node-partitioned topic to that node's partition.
   */
  <V> Map<String, V> latest(Topic<String, V> topic, String node) {
    return latest(topic, (partition, count) -> node == null || partition == NodePartitioning.partitionOfNode(node, count));
  }

  /**
   * The latest value per key in one partition. For a broadcast topic ({@code config-broadcast}: one
   * copy of every record in every partition) partition 0 is the whole of it.
   */
  <V> Map<String, V> latestInPartition(Topic<String, V> topic, int partition) {
    return latest(topic, (p, count) -> p == partition);
  }

  /** @param read whether to read partition p of a topic with count partitions */
  private <V> Map<String, V> latest(Topic<String, V> topic, BiPredicate<Integer, Integer> read) {
    Map<String, Object> props = new HashMap<>(clientProperties);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    // A read never creates a topic: one created by the broker's defaults would not be compacted.
    props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
    props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
    Map<String, V> latest = new LinkedHashMap<>();
    try (KafkaConsumer<String, V> consumer = new KafkaConsumer<>(props, topic.keySerde().deserializer(), topic.valueSerde().deserializer())) {
      List<PartitionInfo> infos = consumer.partitionsFor(topic.name(), TIMEOUT);
      if (infos == null || infos.isEmpty()) {
        throw new CliException(ClusterConnection.noTopic(topic.name(), clientProperties.get("bootstrap.servers")));
      }
      List<TopicPartition> partitions = new ArrayList<>();
      for (PartitionInfo info : infos) {
        if (read.test(info.partition(), infos.size())) {
          partitions.add(new TopicPartition(topic.name(), info.partition()));
        }
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions, TIMEOUT);
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (!reached(consumer, end)) {
        if (System.nanoTime() > deadline) {
          throw new CliException("timed out reading " + topic.name() + " to its end");
        }
        for (ConsumerRecord<String, V> record : consumer.poll(Duration.ofMillis(200))) {
          if (record.value() == null) {
            latest.remove(record.key());
          } else {
            latest.remove(record.key()); // so iteration order is the order of the latest writes
            latest.put(record.key(), record.value());
          }
        }
      }
    } catch (SerializationException e) {
      // The registry's answer says why (it refused the credentials, it has no such schema id); Kafka's
      // own message names the offset and suggests skipping the record, which would not help.
      Throwable registry = e;
      while (registry != null && !(registry instanceof SchemaRegistryException)) {
        registry = registry.getCause();
      }
      throw new CliException("cannot decode a record of " + topic.name() + ": "
          + (registry != null ? registry.getMessage() : ProcessException.rootMessage(e)), e);
    } catch (RegistryUnavailableException e) {
      throw new CliException(e.getMessage(), e);
    } catch (KafkaException e) {
      throw new CliException("cannot read " + topic.name() + " from " + clientProperties.get("bootstrap.servers") + ": "
          + KafkaRefusal.describe(e, clientProperties).orElse(e.getMessage()), e);
    }
    return latest;
  }

  private static boolean reached(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
    for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
      if (consumer.position(e.getKey()) < e.getValue()) {
        return false;
      }
    }
    return true;
  }

  /** Publishes and waits for the broker's acknowledgement; returns where the record went. */
  <V> RecordMetadata publish(Topic<String, V> topic, String key, V value) {
    Map<String, Object> props = new HashMap<>(clientProperties);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) TIMEOUT.toMillis());
    props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
    props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis() - 1000);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    if (topic.nodePartitioned()) {
      props.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, NodePartitioner.class.getName());
    }
    try (KafkaProducer<String, V> producer = new KafkaProducer<>(props, topic.keySerde().serializer(), topic.valueSerde().serializer())) {
      return producer.send(new ProducerRecord<>(topic.name(), key, value)).get(TIMEOUT.toMillis() + 5000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new CliException("cannot publish to " + topic.name() + ": "
          + KafkaRefusal.describe(e.getCause(), clientProperties).orElse(e.getCause().getMessage()), e.getCause());
    } catch (TimeoutException e) {
      throw new CliException("timed out publishing to " + topic.name() + " at " + clientProperties.get("bootstrap.servers"), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException("interrupted while publishing to " + topic.name(), e);
    } catch (RegistryUnavailableException e) {
      throw new CliException(e.getMessage(), e);
    } catch (KafkaException e) {
      throw new CliException("cannot publish to " + topic.name() + " at " + clientProperties.get("bootstrap.servers") + ": "
          + KafkaRefusal.describe(e, clientProperties).orElse(e.getMessage()), e);
    }
  }
}
