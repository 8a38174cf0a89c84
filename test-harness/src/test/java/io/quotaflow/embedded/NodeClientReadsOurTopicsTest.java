package io.quotaflow.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.testharness.ExternalCommand;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * An independent client reads our topics: Node's kafkajs and @kafkajs/confluent-schema-registry
 * (pinned by {@code src/test/node/package-lock.json}) consume samples written by our serializer
 * and decode every value through our registry — what a data team does with {@code samples}.
 * Skipped, saying so, where node or npm is not installed.
 */
@WithKafka
class NodeClientReadsOurTopicsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int SAMPLES = 5;

  @Test
  void kafkajsDecodesEverySampleThroughOurRegistry(KafkaEnv kafka) throws Exception {
    assumeTrue(ExternalCommand.available("node"), "node is not installed or not on the PATH: the independent-client check needs Node.js 18+");
    assumeTrue(ExternalCommand.available("npm"), "npm is not installed or not on the PATH: the independent-client check installs kafkajs with npm ci");
    Path client = installedClient();

    Topics topics = Topics.create(new Topics.Settings(TestTopics.uniquePrefix("node"), 3, true), kafka.registryClient());
    Topic<String, CgroupSample> samples = topics.samples();
    TestTopics.create(kafka, samples);
    List<CgroupSample> written = produce(kafka, samples);

    ExternalCommand.Result read = ExternalCommand.run(client, Duration.ofMinutes(3), List.of("node", "read-topic.js",
        kafka.bootstrapServers(), kafka.registryUrl(), samples.name(), Integer.toString(SAMPLES), "120000"));

    assertThat(read.exitCode()).as(read.describe()).isZero();
    List<JsonNode> decoded = new ArrayList<>();
    for (String line : read.stdout().strip().split("\n")) {
      decoded.add(JSON.readTree(line));
    }
    decoded.sort(Comparator.comparing(line -> line.get("value").get("seq").asLong()));
    assertThat(decoded).as(read.describe()).hasSize(SAMPLES);
    for (int i = 0; i < SAMPLES; i++) {
      CgroupSample expected = written.get(i);
      JsonNode record = decoded.get(i);
      JsonNode value = record.get("value");
      assertThat(record.get("key").asText()).isEqualTo(expected.getNode() + "/" + expected.getTask());
      assertThat(value.get("node").asText()).isEqualTo(expected.getNode());
      assertThat(value.get("task").asText()).isEqualTo(expected.getTask());
      assertThat(value.get("ts_ms").asLong()).isEqualTo(expected.getTsMs());
      assertThat(value.get("cpu_usage_usec").asLong()).isEqualTo(expected.getCpuUsageUsec());
      assertThat(value.get("memory_bytes").asLong()).isEqualTo(expected.getMemoryBytes());
      assertThat(value.get("state").asText()).isEqualTo(expected.getState().name());
      assertThat(value.get("seq").asLong()).isEqualTo(expected.getSeq());
      if (expected.getMemoryAnonBytes() == null) {
        assertThat(value.get("memory_anon_bytes").isNull()).isTrue();
      } else {
        assertThat(value.get("memory_anon_bytes").asLong()).isEqualTo(expected.getMemoryAnonBytes());
      }
      if (expected.getCpuQuotaCores() == null) {
        assertThat(value.get("cpu_quota_cores").isNull()).isTrue();
      } else {
        assertThat(value.get("cpu_quota_cores").asDouble()).isEqualTo(expected.getCpuQuotaCores());
      }
    }
  }

  /** Copies the Node project into the build directory and installs exactly its lock file there. */
  private static Path installedClient() throws Exception {
    Path source = Path.of(System.getProperty("quotaflow.node.dir", "src/test/node"));
    Path work = Path.of(System.getProperty("quotaflow.node.work", "target/node-client"));
    Files.createDirectories(work);
    for (String file : List.of("package.json", "package-lock.json", "read-topic.js")) {
      Files.copy(source.resolve(file), work.resolve(file), StandardCopyOption.REPLACE_EXISTING);
    }
    ExternalCommand.Result install = ExternalCommand.run(work, Duration.ofMinutes(5),
        List.of("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"));
    assertThat(install.exitCode()).as("npm ci: " + install.describe()).isZero();
    return work;
  }

  private static List<CgroupSample> produce(KafkaEnv kafka, Topic<String, CgroupSample> topic) {
    List<CgroupSample> written = new ArrayList<>();
    Map<String, Object> config = new HashMap<>(kafka.clientConfig());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<String, CgroupSample> producer = new KafkaProducer<>(config, new StringSerializer(), topic.valueSerde().serializer())) {
      for (int i = 0; i < SAMPLES; i++) {
        CgroupSample sample = CgroupSample.newBuilder()
            .setNode("node-" + (i % 2))
            .setTask("task-" + i)
            .setTsMs(1_767_225_600_000L + i * 1000L)
            .setCpuUsageUsec(5_000_000L * (i + 1))
            .setMemoryBytes(512L * 1024 * 1024 + i)
            .setMemoryAnonBytes(i % 2 == 0 ? 256L * 1024 * 1024 + i : null)
            .setCpuQuotaCores(i % 2 == 0 ? null : 1.5)
            .setState(i == SAMPLES - 1 ? SampleState.GONE : SampleState.RUNNING)
            .setSeq(i)
            .build();
        producer.send(new ProducerRecord<>(topic.name(), sample.getNode() + "/" + sample.getTask(), sample));
        written.add(sample);
      }
      producer.flush();
    }
    return written;
  }
}
