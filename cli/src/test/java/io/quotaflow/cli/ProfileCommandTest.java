package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.schemas.NodePartitioner;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.ConfigBroadcast;
import io.quotaflow.streams.topology.StreamsRunner;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code quotaflow profile show} against a real broker and registry. The profiles are the real
 * streams app's: it learns them from task specs and samples ending in GONE and broadcasts them on
 * {@code config-broadcast}, which the command reads.
 */
@WithKafka
class ProfileCommandTest {

  private static final int PARTITIONS = 3;
  private static final long MIB = 1L << 20;
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final String NODE = "node-1";

  @TempDir Path stateDir;

  @Test
  void showPrintsWhatTheStreamsAppLearnedFromFinishedTasks(KafkaEnv kafka) throws Exception {
    Topics topics = Topics.create(new Topics.Settings(TestTopics.uniquePrefix("profiles"), PARTITIONS, true),
        kafka.registryClient());
    OperatorTool tool = new OperatorTool(kafka, topics.settings().prefix(), PARTITIONS);
    try (StreamsRunner app = startStreamsApp(kafka, topics)) {
      OperatorTool.Run none = tool.capture("profile", "show");
      assertThat(none.exitCode()).as(none.err()).isZero();
      assertThat(none.out()).startsWith("# no learned profiles yet");
      // A cluster config is broadcast on the same topic: it is no profile and must not be shown as one.
      tool.run("cluster", "set", "peak_gating_mode=COUNT");

      // First run of etl-join: mean 200 MiB, max 300 MiB; the GONE sample itself is no usage.
      long firstGoneMs = run(kafka, topics, "t1", List.of(100 * MIB, 200 * MIB, 300 * MIB, 200 * MIB));
      awaitProfileRuns(kafka, topics, 1);
      OperatorTool.Run first = tool.capture("profile", "show");
      assertThat(first.exitCode()).as(first.err()).isZero();
      assertThat(first.out().lines()).hasSize(2);
      assertThat(first.out().lines().findFirst().orElseThrow().split("\\s{2,}"))
          .containsExactly("OPERATION", "NORMAL", "PEAK", "RUNS", "UPDATED (UTC)");
      assertThat(cells(first, 1)).containsExactly("etl-join", "200.0 MiB (209715200 bytes)",
          "300.0 MiB (314572800 bytes)", "1", utcSeconds(firstGoneMs));

      // Second run, 400 MiB flat: the newest run weighs 0.3, and only the latest profile is shown.
      long secondGoneMs = run(kafka, topics, "t2", List.of(400 * MIB, 400 * MIB));
      awaitProfileRuns(kafka, topics, 2);
      OperatorTool.Run second = tool.capture("profile", "show", "etl-join");
      assertThat(second.exitCode()).as(second.err()).isZero();
      assertThat(second.out().lines()).hasSize(2);
      assertThat(cells(second, 1)).containsExactly("etl-join", "260.0 MiB (272629760 bytes)",
          "330.0 MiB (346030080 bytes)", "2", utcSeconds(secondGoneMs));

      OperatorTool.Run unknown = tool.capture("profile", "show", "etl-sort");
      assertThat(unknown.exitCode()).isEqualTo(1);
      assertThat(unknown.out()).isEmpty();
      assertThat(unknown.err().strip())
          .isEqualTo("quotaflow profile show: no learned profile for operation 'etl-sort' (learned: etl-join)");
    }
  }

  @Test
  void aMissingBroadcastTopicIsOneClearLine(KafkaEnv kafka) {
    OperatorTool.Run missing = new OperatorTool(kafka, TestTopics.uniquePrefix("absent"), PARTITIONS)
        .capture("profile", "show");
    assertThat(missing.exitCode()).isEqualTo(1);
    assertThat(missing.err()).contains("config-broadcast on " + kafka.bootstrapServers() + "; is --topic-prefix right?")
        .doesNotContain("\tat ");
  }

  @Test
  void anInvalidOperationIdIsRefusedBeforeConnecting() {
    StringWriter err = new StringWriter();
    CommandLine line = new CommandLine(new QuotaflowCli()).setErr(new PrintWriter(err, true));
    long startNs = System.nanoTime();
    // Nothing listens on port 1: a command that tried to connect would fail on that, after its timeout.
    int code = QuotaflowCli.execute(line, "profile", "show", "etl/join", "--bootstrap", "127.0.0.1:1",
        "--registry", "http://127.0.0.1:1");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).startsWith("quotaflow profile show: invalid operation id 'etl/join': it has a character outside")
        .doesNotContain("\tat ");
    assertThat(System.nanoTime() - startNs).as("no connection attempted").isLessThan(5_000_000_000L);
  }

  private StreamsRunner startStreamsApp(KafkaEnv kafka, Topics topics) throws InterruptedException {
    Map<String, Object> overrides = new HashMap<>();
    overrides.put(StreamsConfig.APPLICATION_ID_CONFIG, topics.settings().prefix() + "app");
    overrides.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    StreamsRunner runner = StreamsRunner.start(new StreamsRunner.Settings(kafka.clientConfig(), overrides,
        topics.settings(), Optional.empty()), kafka.registryClient(), new SimpleMeterRegistry());
    if (!runner.awaitRunning(PATIENCE)) {
      runner.close();
      throw new AssertionError("streams app did not reach RUNNING: " + runner.state());
    }
    return runner;
  }

  /**
   * One finished task of operation etl-join: its spec, one sample a second with these anonymous
   * usages, then its GONE sample. Returns the GONE sample's ts_ms, the profile's update time.
   */
  private static long run(KafkaEnv kafka, Topics topics, String task, List<Long> anonBytes) {
    String key = NODE + "/" + task;
    produce(kafka, topics.taskSpecs(), key, TaskSpec.newBuilder().setNode(NODE).setTask(task)
        .setOperation("etl-join").setNcpus(1).build());
    long tsMs = System.currentTimeMillis();
    for (long bytes : anonBytes) {
      produce(kafka, topics.samples(), key, sample(task, tsMs, bytes, SampleState.RUNNING));
      tsMs += 1_000;
    }
    produce(kafka, topics.samples(), key, sample(task, tsMs, 0, SampleState.GONE));
    return tsMs;
  }

  private static CgroupSample sample(String task, long tsMs, long anonBytes, SampleState state) {
    return CgroupSample.newBuilder().setNode(NODE).setTask(task).setTsMs(tsMs).setCpuUsageUsec(0)
        .setMemoryBytes(anonBytes + 8 * MIB).setMemoryAnonBytes(anonBytes).setState(state).build();
  }

  private static <V> void produce(KafkaEnv kafka, Topic<String, V> topic, String key, V value) {
    Map<String, Object> config = new HashMap<>(kafka.clientConfig());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, NodePartitioner.class.getName());
    try (KafkaProducer<String, V> producer = new KafkaProducer<>(config, topic.keySerde().serializer(),
        topic.valueSerde().serializer())) {
      producer.send(new ProducerRecord<>(topic.name(), key, value)).get();
    } catch (Exception e) {
      throw new IllegalStateException("cannot produce to " + topic.name() + ": " + e, e);
    }
  }

  /** Waits until the streams app committed etl-join's profile after {@code runs} runs to partition 0, where the command reads. */
  private static void awaitProfileRuns(KafkaEnv kafka, Topics topics, long runs) {
    Topic<String, ConfigBroadcast> broadcast = topics.configBroadcast();
    KafkaWait.recordsUntil(kafka, broadcast.name(), broadcast.keySerde().deserializer(),
        broadcast.valueSerde().deserializer(),
        seen -> seen.stream().anyMatch(r -> r.partition() == 0 && r.key().equals("MEMORY_PROFILE/etl-join")
            && r.value().getMemoryProfile().getRuns() == runs),
        "etl-join's profile after " + runs + " runs", PATIENCE);
  }

  private static String[] cells(OperatorTool.Run run, int line) {
    return run.out().lines().toList().get(line).split("\\s{2,}");
  }

  private static String utcSeconds(long epochMs) {
    return Instant.ofEpochMilli(epochMs).truncatedTo(ChronoUnit.SECONDS).toString();
  }
}
