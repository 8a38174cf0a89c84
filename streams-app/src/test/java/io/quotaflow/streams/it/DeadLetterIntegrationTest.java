package io.quotaflow.streams.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.NodePartitioning;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.streams.topology.StreamsRunner;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.WithKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every kind of bad input on a real broker: it lands in the DLQ with its reason, and nothing else is lost. */
@WithKafka
class DeadLetterIntegrationTest {

  private static CgroupSample sample(String node, String task, long tsMs, long usageUsec) {
    return CgroupSample.newBuilder().setNode(node).setTask(task).setTsMs(tsMs).setCpuUsageUsec(usageUsec)
        .setMemoryBytes(1L << 20).setState(SampleState.RUNNING).setSeq(1).build();
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    Header header = record.headers().lastHeader(name);
    return header == null ? "" : new String(header.value(), StandardCharsets.UTF_8);
  }

  @Test
  void badRecordsGoToTheDlqWithTheirReasonAndTheAppKeepsDeciding(KafkaEnv kafka, @TempDir Path stateDir) throws Exception {
    StreamsAppFixture app = new StreamsAppFixture(kafka, "dlq");
    try (StreamsRunner runner = app.start(stateDir)) {
      long now = System.currentTimeMillis();
      String samples = app.topics.samples().name();
      int n1 = NodePartitioning.partitionOfNode("n1", StreamsAppFixture.PARTITIONS);
      app.produce(app.topics.taskSpecs(), List.of(Map.entry("n1/good", TaskSpec.newBuilder().setNode("n1").setTask("good").setNcpus(1).build())));

      app.produceRaw(samples, n1, "n1/garbage", new byte[] {0, 0, 0, 0, 99, 1, 2});
      app.produce(app.topics.samples(), List.of(
          Map.entry("n1/..", sample("n1", "..", now, 0)),
          Map.entry("n1/neg", sample("n1", "neg", now, -7)),
          Map.entry("n1/skew", sample("n1", "skew", now - 10 * 60_000, 0))));
      byte[] misplaced = app.topics.samples().valueSerde().serializer().serialize(samples, sample("n1", "moved", now, 0));
      app.produceRaw(samples, (n1 + 1) % StreamsAppFixture.PARTITIONS, "n1/moved", misplaced);
      // The enforcer's reflex freezes move a node's gate like its samples: one in another node's partition is refused;
      // any other result is no input of the app's, wherever it is.
      String results = app.topics.enforcementResults().name();
      int elsewhere = (n1 + 1) % StreamsAppFixture.PARTITIONS;
      byte[] reflex = app.topics.enforcementResults().valueSerde().serializer().serialize(results,
          result("reflexed", EnforcementStatus.REFLEX_FROZEN, now));
      app.produceRaw(results, elsewhere, "n1/reflexed", reflex);
      app.produceRaw(results, elsewhere, "n1/applied", app.topics.enforcementResults().valueSerde().serializer()
          .serialize(results, result("applied", EnforcementStatus.APPLIED, now)));
      app.produce(app.topics.samples(), List.of(Map.entry("n1/good", sample("n1", "good", now, 0))));

      List<ConsumerRecord<String, CpuDecision>> decisions = KafkaWait.records(kafka, app.topics.cpuDecisions(), 1, Duration.ofSeconds(60));
      assertThat(decisions).extracting(ConsumerRecord::key).containsExactly("n1/good");

      List<ConsumerRecord<byte[], byte[]>> dlq = KafkaWait.records(kafka, app.topics.dlq().name(), new ByteArrayDeserializer(),
          new ByteArrayDeserializer(), 6, Duration.ofSeconds(60));
      Map<String, ConsumerRecord<byte[], byte[]>> byKey = new java.util.HashMap<>();
      dlq.forEach(r -> byKey.put(new String(r.key(), StandardCharsets.UTF_8), r));
      assertThat(byKey).containsOnlyKeys("n1/garbage", "n1/..", "n1/neg", "n1/skew", "n1/moved", "n1/reflexed");
      assertThat(header(byKey.get("n1/garbage"), "__streams.errors.exception")).contains("UnknownSchemaIdException");
      assertThat(byKey.get("n1/garbage").value()).containsExactly(0, 0, 0, 0, 99, 1, 2);
      assertThat(header(byKey.get("n1/.."), "__streams.errors.message")).contains("invalid task id '..'");
      assertThat(header(byKey.get("n1/neg"), "__streams.errors.message")).contains("cpu_usage_usec must not be negative");
      assertThat(header(byKey.get("n1/skew"), "__streams.errors.message")).contains("clock skew");
      assertThat(header(byKey.get("n1/moved"), "__streams.errors.message")).contains("maps to partition " + n1);
      assertThat(byKey.get("n1/moved").value()).isEqualTo(misplaced);
      assertThat(header(byKey.get("n1/reflexed"), "__streams.errors.message")).contains("maps to partition " + n1);
      assertThat(header(byKey.get("n1/reflexed"), "__streams.errors.topic")).isEqualTo(results);
      assertThat(byKey.get("n1/reflexed").value()).isEqualTo(reflex);
      assertThat(header(byKey.get("n1/neg"), "__streams.errors.topic")).isEqualTo(samples);
    }
  }

  private static EnforcementResult result(String task, EnforcementStatus status, long tsMs) {
    return EnforcementResult.newBuilder().setNode("n1").setTask(task).setTsMs(tsMs).setKind(EnforcementKind.FREEZE)
        .setStatus(status).setReadFrozen(true).setReadMemoryBytes(1L << 30).setDecisionTopic("gate-tables")
        .setDecisionPartition(0).setDecisionOffset(0).build();
  }

  @Test
  void aLateSampleIsCountedAndNotDeadLettered(KafkaEnv kafka, @TempDir Path stateDir) throws Exception {
    StreamsAppFixture app = new StreamsAppFixture(kafka, "late");
    try (StreamsRunner runner = app.start(stateDir)) {
      long now = System.currentTimeMillis() - 60_000;
      app.produce(app.topics.taskSpecs(), List.of(Map.entry("n2/t", TaskSpec.newBuilder().setNode("n2").setTask("t").setNcpus(1).build())));
      app.produce(app.topics.samples(), List.of(
          Map.entry("n2/t", sample("n2", "t", now, 0)),
          Map.entry("n2/t", sample("n2", "t", now + 1000, 1000)),
          Map.entry("n2/t", sample("n2", "t", now + 2000, 2000)),
          Map.entry("n2/t", sample("n2", "t", now + 500, 500))));
      KafkaWait.consumerGroupCaughtUp(kafka, app.applicationId, List.of(app.topics.samples().name()), Duration.ofSeconds(60));
      assertThat(app.meters.counter("quotaflow.streams.late.samples").count()).isEqualTo(1.0);
      assertThat(app.meters.counter("quotaflow.streams.samples").count()).isEqualTo(4.0);
      assertThat(app.recordCount(app.topics.dlq().name())).isZero();
    }
  }
}
