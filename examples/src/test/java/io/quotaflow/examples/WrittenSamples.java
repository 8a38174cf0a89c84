package io.quotaflow.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotaflow.schemas.NodePartitioner;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.TestTopics;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Samples written to a fresh samples topic by the project's own serializer and partitioner (as a
 * collector writes them), and the check that an example printed exactly them back.
 */
record WrittenSamples(String topic, List<CgroupSample> samples) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Creates a samples topic of its own (3 partitions) and writes {@code count} samples, nullable fields both ways. */
  static WrittenSamples write(KafkaEnv kafka, String name, int count) {
    Topics topics = Topics.create(new Topics.Settings(TestTopics.uniquePrefix(name), 3, true), kafka.registryClient());
    Topic<String, CgroupSample> samples = topics.samples();
    TestTopics.create(kafka, samples);
    List<CgroupSample> written = new ArrayList<>();
    Map<String, Object> config = new HashMap<>(kafka.clientConfig());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, NodePartitioner.class.getName());
    try (KafkaProducer<String, CgroupSample> producer =
             new KafkaProducer<>(config, new StringSerializer(), samples.valueSerde().serializer())) {
      for (int i = 0; i < count; i++) {
        CgroupSample sample = CgroupSample.newBuilder()
            .setNode("node-" + (i % 2))
            .setTask("task-" + i)
            .setTsMs(1_767_225_600_000L + i * 1000L)
            .setCpuUsageUsec(5_000_000L * (i + 1))
            .setMemoryBytes(512L * 1024 * 1024 + i)
            .setMemoryAnonBytes(i % 2 == 0 ? 256L * 1024 * 1024 + i : null)
            .setMemoryPeakBytes(i % 2 == 0 ? null : 600L * 1024 * 1024)
            .setNrThrottled(i)
            .setThrottledUsec(i % 2 == 0 ? null : 4_500L * i)
            .setCpuQuotaCores(i % 2 == 0 ? null : 1.5)
            .setState(i == count - 1 ? SampleState.GONE : SampleState.RUNNING)
            .setSeq(i)
            .build();
        producer.send(new ProducerRecord<>(samples.name(), sample.getNode() + "/" + sample.getTask(), sample));
        written.add(sample);
      }
      producer.flush();
    }
    return new WrittenSamples(samples.name(), List.copyOf(written));
  }

  /**
   * Asserts that {@code stdout}, one JSON line {"topic", "partition", "offset", "key", "schema_id",
   * "value"} per record, holds exactly the written samples with every field (order across
   * partitions is the broker's, so lines are matched by {@code seq}).
   */
  void assertPrinted(String stdout, String describe) throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : stdout.strip().split("\n")) {
      if (!line.isBlank()) {
        lines.add(JSON.readTree(line));
      }
    }
    assertThat(lines).as(describe).hasSize(samples.size());
    lines.sort(Comparator.comparing(line -> line.get("value").get("seq").asLong()));
    for (int i = 0; i < samples.size(); i++) {
      CgroupSample expected = samples.get(i);
      JsonNode line = lines.get(i);
      JsonNode value = line.get("value");
      assertThat(line.get("topic").asText()).isEqualTo(topic);
      assertThat(line.get("key").asText()).isEqualTo(expected.getNode() + "/" + expected.getTask());
      assertThat(line.get("schema_id").isInt()).as("schema id of " + line).isTrue();
      assertThat(value.get("node").asText()).isEqualTo(expected.getNode());
      assertThat(value.get("task").asText()).isEqualTo(expected.getTask());
      assertThat(value.get("ts_ms").asLong()).isEqualTo(expected.getTsMs());
      assertThat(value.get("cpu_usage_usec").asLong()).isEqualTo(expected.getCpuUsageUsec());
      assertThat(value.get("memory_bytes").asLong()).isEqualTo(expected.getMemoryBytes());
      assertNullableLong(value, "memory_anon_bytes", expected.getMemoryAnonBytes());
      assertNullableLong(value, "memory_peak_bytes", expected.getMemoryPeakBytes());
      assertThat(value.get("nr_throttled").asLong()).isEqualTo(expected.getNrThrottled());
      assertNullableLong(value, "throttled_usec", expected.getThrottledUsec());
      if (expected.getCpuQuotaCores() == null) {
        assertThat(value.get("cpu_quota_cores").isNull()).as("cpu_quota_cores of " + value).isTrue();
      } else {
        assertThat(value.get("cpu_quota_cores").asDouble()).isEqualTo(expected.getCpuQuotaCores());
      }
      assertThat(value.get("state").asText()).isEqualTo(expected.getState().name());
      assertThat(value.get("seq").asLong()).isEqualTo(expected.getSeq());
    }
  }

  private static void assertNullableLong(JsonNode value, String field, Long expected) {
    if (expected == null) {
      assertThat(value.get(field).isNull()).as(field + " of " + value).isTrue();
    } else {
      assertThat(value.get(field).asLong()).as(field + " of " + value).isEqualTo(expected);
    }
  }
}
