package io.quotaflow.testharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.schemas.GroupLag;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
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
import org.opentest4j.AssertionFailedError;

@WithKafka
class KafkaWaitTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @Test
  void recordsReturnsOnceTheExpectedCountArrived(KafkaEnv kafka) {
    String topic = TestTopics.create(kafka, "wait-records", 2);
    produce(kafka, topic, 4);

    List<ConsumerRecord<String, String>> read = KafkaWait.records(kafka, topic, new StringDeserializer(), new StringDeserializer(), 4, TIMEOUT);

    assertThat(read).extracting(ConsumerRecord::value).containsExactlyInAnyOrder("v0", "v1", "v2", "v3");
  }

  @Test
  void recordsFailsSayingWhatItSawWhenTooFewArrive(KafkaEnv kafka) {
    String topic = TestTopics.create(kafka, "wait-short", 1);
    produce(kafka, topic, 1);

    assertThatThrownBy(() -> KafkaWait.records(kafka, topic, new StringDeserializer(), new StringDeserializer(), 2, Duration.ofSeconds(2)))
        .isInstanceOf(AssertionFailedError.class)
        .hasMessageContaining("at least 2 records").hasMessageContaining("read 1").hasMessageContaining("v0");
  }

  @Test
  void groupIsCaughtUpOnlyWhenItCommittedTheEndOfEveryPartition(KafkaEnv kafka) throws Exception {
    String topic = TestTopics.create(kafka, "wait-lag", 2);
    String group = TestTopics.uniqueName("lag-group");
    produce(kafka, topic, 6); // three records on each partition

    try (Admin admin = kafka.admin()) {
      assertThat(GroupLag.of(admin, group, List.of(topic))).as("nothing committed yet").hasSize(2);
      TopicPartition p0 = new TopicPartition(topic, 0);
      TopicPartition p1 = new TopicPartition(topic, 1);
      Map<TopicPartition, Long> ends = endOffsets(kafka, List.of(p0, p1));

      commit(kafka, group, Map.of(p0, ends.get(p0), p1, 0L));
      assertThat(ends).containsEntry(p0, 3L).containsEntry(p1, 3L);
      assertThat(GroupLag.of(admin, group, List.of(topic))).containsExactly(Map.entry(p1, 3L));

      commit(kafka, group, Map.of(p0, ends.get(p0), p1, ends.get(p1)));
      KafkaWait.consumerGroupCaughtUp(kafka, group, List.of(topic), TIMEOUT);
      assertThat(GroupLag.of(admin, group, List.of(topic))).isEmpty();
    }
  }

  @Test
  void groupIsNotCaughtUpWhileATransactionOnThePartitionIsUnfinished(KafkaEnv kafka) throws Exception {
    String topic = TestTopics.create(kafka, "wait-txn", 1);
    String group = TestTopics.uniqueName("txn-group");
    TopicPartition p0 = new TopicPartition(topic, 0);
    Map<String, Object> config = new HashMap<>(kafka.clientConfig());
    config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, TestTopics.uniqueName("txn"));
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
        Admin admin = kafka.admin()) {
      producer.initTransactions();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>(topic, 0, "k", "v")).get();
      // The stable end is still 0, where the group is, yet a record waits behind the open transaction: what a
      // commit marker that has reached the group's offsets but not this partition looks like too.
      assertThat(GroupLag.of(admin, group, List.of(topic))).containsExactly(Map.entry(p0, 1L));

      producer.commitTransaction();
      commit(kafka, group, Map.of(p0, 2L)); // past the record and its marker
      KafkaWait.consumerGroupCaughtUp(kafka, group, List.of(topic), TIMEOUT);
      assertThat(GroupLag.of(admin, group, List.of(topic))).isEmpty();
    }
  }

  @Test
  void consumerGroupCaughtUpTimesOutNamingTheLaggingPartitions(KafkaEnv kafka) {
    String topic = TestTopics.create(kafka, "wait-stuck", 1);
    produce(kafka, topic, 1);

    assertThatThrownBy(() -> KafkaWait.consumerGroupCaughtUp(kafka, TestTopics.uniqueName("idle"), List.of(topic), Duration.ofSeconds(1)))
        .isInstanceOf(AssertionFailedError.class)
        .hasMessageContaining(topic + "-0=1");
  }

  private static void produce(KafkaEnv kafka, String topic, int count) {
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(kafka.clientConfig(), new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < count; i++) {
        int partitions = producer.partitionsFor(topic).size();
        producer.send(new ProducerRecord<>(topic, i % partitions, "k" + i, "v" + i));
      }
      producer.flush();
    }
  }

  private static Map<TopicPartition, Long> endOffsets(KafkaEnv kafka, List<TopicPartition> partitions) {
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(kafka.clientConfig(), new StringDeserializer(), new StringDeserializer())) {
      return consumer.endOffsets(partitions);
    }
  }

  private static void commit(KafkaEnv kafka, String group, Map<TopicPartition, Long> offsets) {
    Map<String, Object> config = new HashMap<>(kafka.clientConfig());
    config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
      Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
      offsets.forEach((tp, offset) -> commits.put(tp, new OffsetAndMetadata(offset)));
      consumer.assign(new ArrayList<>(offsets.keySet()));
      consumer.commitSync(commits);
    }
  }
}
