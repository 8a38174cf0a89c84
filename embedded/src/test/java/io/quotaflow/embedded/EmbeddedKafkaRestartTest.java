package io.quotaflow.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A broker of its own (not the shared one): it is stopped and started again on the same data directory. */
class EmbeddedKafkaRestartTest {
  private static final String TOPIC = "kept";
  private static final String GROUP = "kept-reader";

  @Test
  void restartOnTheSameDataDirectoryKeepsTopicsRecordsAndCommittedOffsets(@TempDir Path dir) throws Exception {
    String clusterId;
    try (EmbeddedKafka kafka = EmbeddedKafka.start(BrokerSettings.defaults().withDataDir(dir))) {
      assertThat(kafka.formattedDataDir()).isTrue();
      clusterId = kafka.clusterId();
      try (Admin admin = Admin.create(kafka.clientConfig())) {
        admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 1))).all().get();
      }
      produce(kafka, 6);
      assertThat(consumeAndCommit(kafka, 6)).hasSize(6);
    }
    assertThat(dir).isDirectory();
    assertThat(Files.exists(dir.resolve("meta.properties"))).isTrue();

    int port = Ports.free("localhost");
    try (EmbeddedKafka again = EmbeddedKafka.start(BrokerSettings.defaults().withDataDir(dir).withPort(port))) {
      assertThat(again.formattedDataDir()).isFalse();
      assertThat(again.clusterId()).isEqualTo(clusterId);
      assertThat(again.bootstrapServers()).isEqualTo("localhost:" + port);
      try (Admin admin = Admin.create(again.clientConfig())) {
        TopicDescription kept = admin.describeTopics(Set.of(TOPIC)).allTopicNames().get().get(TOPIC);
        assertThat(kept.partitions()).hasSize(3);
        Map<TopicPartition, OffsetAndMetadata> committed =
            admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get();
        assertThat(committed.values().stream().mapToLong(OffsetAndMetadata::offset).sum()).isEqualTo(6);
      }
      produce(again, 2);
      // The group resumes after its committed offsets: it sees only the two new records.
      assertThat(consumeAndCommit(again, 2)).extracting(ConsumerRecord::value).containsExactlyInAnyOrder("v6", "v7");
    }
    assertThat(dir).isDirectory(); // a given data directory is never deleted
  }

  private static void produce(EmbeddedKafka kafka, int count) throws Exception {
    Map<String, Object> config = new HashMap<>(kafka.clientConfig());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
      int base = (int) offsetsEnd(kafka);
      for (int i = 0; i < count; i++) {
        producer.send(new ProducerRecord<>(TOPIC, "k" + (base + i), "v" + (base + i))).get();
      }
    }
  }

  private static long offsetsEnd(EmbeddedKafka kafka) throws Exception {
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(kafka.clientConfig(), new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> partitions = List.of(new TopicPartition(TOPIC, 0), new TopicPartition(TOPIC, 1), new TopicPartition(TOPIC, 2));
      return consumer.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
    }
  }

  /** Reads with the group until {@code expected} records arrived (bounded by a deadline), then commits. */
  private static List<ConsumerRecord<String, String>> consumeAndCommit(EmbeddedKafka kafka, int expected) {
    Map<String, Object> config = new HashMap<>(kafka.clientConfig());
    config.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    List<ConsumerRecord<String, String>> seen = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
      consumer.subscribe(List.of(TOPIC));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (seen.size() < expected && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
      }
      consumer.commitSync();
    }
    return seen;
  }
}
