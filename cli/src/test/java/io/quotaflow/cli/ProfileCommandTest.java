package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.embedded.junit.KafkaEnv;
import io.quotaflow.embedded.junit.TestTopics;
import io.quotaflow.embedded.junit.WithKafka;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.internal.BroadcastKind;
import io.quotaflow.schemas.avro.internal.ConfigBroadcast;
import io.quotaflow.schemas.avro.internal.MemoryProfileRecord;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code quotaflow profile show} against a real broker and registry, reading {@code config-broadcast}
 * as the streams app writes it: a copy of every record in every partition, keyed {@code KIND/id}.
 */
@WithKafka
class ProfileCommandTest {

  private static final int PARTITIONS = 3;
  private static final long MIB = 1L << 20;

  @Test
  void showPrintsTheLatestProfileOfEachOperationAndNothingElseOfTheBroadcast(KafkaEnv kafka) throws Exception {
    Topics topics = broadcastTopic(kafka, "profiles");
    broadcast(kafka, topics, profile("etl-join", 400 * MIB, 1100 * MIB, 1, 1_700_000_000_000L));
    broadcast(kafka, topics, profile("etl-join", 512 * MIB, 1200 * MIB, 2, 1_700_000_060_000L));
    broadcast(kafka, topics, profile("ml-train", 3 * 1024 * MIB, 6 * 1024 * MIB, 7, 1_700_000_120_000L));
    broadcast(kafka, topics, ConfigBroadcast.newBuilder().setKind(BroadcastKind.CLUSTER_CONFIG).setId("main")
        .setClusterConfig(ClusterConfig.newBuilder().setCluster("main").build()).build());

    OperatorTool.Run all = tool(kafka, topics).capture("profile", "show");
    assertThat(all.exitCode()).as(all.err()).isZero();
    assertThat(all.out().lines()).containsExactly(
        "OPERATION  NORMAL                       PEAK                        RUNS  UPDATED (UTC)",
        "etl-join   512.0 MiB (536870912 bytes)  1.2 GiB (1258291200 bytes)  2     2023-11-14T22:14:20Z",
        "ml-train   3.0 GiB (3221225472 bytes)   6.0 GiB (6442450944 bytes)  7     2023-11-14T22:15:20Z");

    OperatorTool.Run one = tool(kafka, topics).capture("profile", "show", "ml-train");
    assertThat(one.exitCode()).isZero();
    assertThat(one.out()).contains("ml-train", "3221225472 bytes").doesNotContain("etl-join");
  }

  @Test
  void anOperationWithNoProfileIsAnErrorThatNamesTheLearnedOnes(KafkaEnv kafka) throws Exception {
    Topics topics = broadcastTopic(kafka, "unknown");
    broadcast(kafka, topics, profile("etl-join", 400 * MIB, 1100 * MIB, 1, 1_700_000_000_000L));

    OperatorTool.Run unknown = tool(kafka, topics).capture("profile", "show", "etl-sort");
    assertThat(unknown.exitCode()).isEqualTo(1);
    assertThat(unknown.out()).isEmpty();
    assertThat(unknown.err().strip())
        .isEqualTo("quotaflow show: no learned profile for operation 'etl-sort' (learned: etl-join)");
  }

  @Test
  void noProfilesYetIsSaidNotAnError(KafkaEnv kafka) {
    Topics topics = broadcastTopic(kafka, "empty");
    OperatorTool.Run none = tool(kafka, topics).capture("profile", "show");
    assertThat(none.exitCode()).isZero();
    assertThat(none.out()).startsWith("# no learned profiles yet");
  }

  @Test
  void aMissingBroadcastTopicIsOneClearLine(KafkaEnv kafka) {
    OperatorTool.Run missing = new OperatorTool(kafka, TestTopics.uniquePrefix("absent"), PARTITIONS)
        .capture("profile", "show");
    assertThat(missing.exitCode()).isEqualTo(1);
    assertThat(missing.err()).contains("config-broadcast does not exist: start the streams app").doesNotContain("\tat ");
  }

  @Test
  void anInvalidOperationIdIsRefusedBeforeConnecting() {
    StringWriter err = new StringWriter();
    CommandLine line = new CommandLine(new QuotaflowCli()).setErr(new PrintWriter(err, true));
    long startNs = System.nanoTime();
    // Nothing listens on port 1: a command that tried to connect would fail on that, after its timeout.
    int code = QuotaflowCli.execute(line, "profile", "show", "etl/join", "--bootstrap", "127.0.0.1:1",
        "--registry", "http://127.0.0.1:1");
    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).startsWith("quotaflow show: invalid operation id 'etl/join': it has a character outside")
        .doesNotContain("\tat ");
    assertThat(System.nanoTime() - startNs).as("no connection attempted").isLessThan(5_000_000_000L);
  }

  private static OperatorTool tool(KafkaEnv kafka, Topics topics) {
    return new OperatorTool(kafka, topics.settings().prefix(), PARTITIONS);
  }

  private static Topics broadcastTopic(KafkaEnv kafka, String name) {
    Topics topics = Topics.create(new Topics.Settings(TestTopics.uniquePrefix(name), PARTITIONS, true), kafka.registryClient());
    TestTopics.create(kafka, topics.configBroadcast());
    return topics;
  }

  private static ConfigBroadcast profile(String operation, long normalBytes, long peakBytes, long runs, long updatedMs) {
    return ConfigBroadcast.newBuilder().setKind(BroadcastKind.MEMORY_PROFILE).setId(operation)
        .setMemoryProfile(new MemoryProfileRecord(operation, normalBytes, peakBytes, runs, updatedMs)).build();
  }

  /** As the streams app broadcasts: the same record into every partition, keyed KIND/id. */
  private static void broadcast(KafkaEnv kafka, Topics topics, ConfigBroadcast value) throws Exception {
    Topic<String, ConfigBroadcast> topic = topics.configBroadcast();
    Map<String, Object> config = new HashMap<>(kafka.clientConfig());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<String, ConfigBroadcast> producer =
        new KafkaProducer<>(config, topic.keySerde().serializer(), topic.valueSerde().serializer())) {
      for (int partition = 0; partition < PARTITIONS; partition++) {
        producer.send(new ProducerRecord<>(topic.name(), partition, value.getKind() + "/" + value.getId(), value)).get();
      }
    }
  }
}
