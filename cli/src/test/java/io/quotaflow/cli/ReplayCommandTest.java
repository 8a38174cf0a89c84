package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cli.replay.ReplayReport;
import io.quotaflow.cli.replay.ReportJson;
import io.quotaflow.schemas.NodePartitioner;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.TopicAdmin;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.JobCpuMonitorConfig;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.streams.topology.StreamsRunner;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quotaflow replay} against a run of the real pipeline on the embedded broker: the streams
 * app decides a minute of samples from four nodes — CPU reclaim and peak gating with freezes —
 * and is killed and restarted in the middle; replaying the recorded topics gives every task's
 * decisions bit for bit, a what-if changes what it should, and bad input is refused naming it.
 */
@WithKafka
class ReplayCommandTest {

  private static final int PARTITIONS = 3;
  private static final int NODES = 4;
  private static final int TASKS = 3;
  private static final int SECONDS = 60;
  private static final long MB = 1L << 20;

  /** One recorded run, shared by the tests: recording it takes most of this class's time. */
  private static Recorded recorded;

  private record Recorded(String prefix, Instant startedAt, Instant endedAt) {}

  private static synchronized Recorded recorded(KafkaEnv kafka, Path dirs) throws Exception {
    if (recorded == null) {
      recorded = record(kafka, dirs);
    }
    return recorded;
  }

  /**
   * Tasks 0 idle, 1 busy, 2 alternating; tasks 1 and 2 declare a normal of 256 MB and reach overlapping peaks of 320 MB,
   * so the gate (COUNT, one peak at a time) freezes one while the other holds the slot.
   */
  private static List<Map.Entry<String, CgroupSample>> samples(long startMs) {
    Random random = new Random(11);
    List<Map.Entry<String, CgroupSample>> samples = new ArrayList<>();
    long[][] usage = new long[NODES][TASKS];
    for (int s = 0; s < SECONDS; s++) {
      for (int n = 0; n < NODES; n++) {
        for (int t = 0; t < TASKS; t++) {
          double cores = t == 0 ? 0.05 : t == 1 ? 1.9 : ((s / 15) % 2 == 0 ? 0.1 : 1.8);
          usage[n][t] += Math.round(cores * 1_000_000 * (0.95 + 0.1 * random.nextDouble()));
          long anon = switch (t) {
            case 0 -> 100 * MB;
            case 1 -> (s >= 10 && s < 25) || (s >= 40 && s < 50) ? 320 * MB : 240 * MB;
            default -> (s / 15) % 2 == 1 ? 320 * MB : 240 * MB;
          };
          samples.add(Map.entry("node-" + n + "/task-" + t, CgroupSample.newBuilder().setNode("node-" + n).setTask("task-" + t)
              .setTsMs(startMs + s * 1000L).setCpuUsageUsec(usage[n][t]).setMemoryBytes(anon + 64 * MB).setMemoryAnonBytes(anon)
              .setSeq(s).build()));
        }
      }
    }
    return samples;
  }

  private static Recorded record(KafkaEnv kafka, Path dirs) throws Exception {
    String prefix = TestTopics.uniquePrefix("replay");
    Topics topics = Topics.create(new Topics.Settings(prefix, PARTITIONS, true), kafka.registryClient());
    List<Topic<?, ?>> all = new ArrayList<>(topics.all());
    all.addAll(topics.internal());
    // The samples keep their producer's time (their ts_ms), so the minute spans a minute of record time however fast the
    // test produces it, as a live collector's do; deployed, the broker's append time is within a second of it.
    Topic<String, CgroupSample> samples = topics.samples();
    Map<String, String> configs = new HashMap<>(samples.configs());
    configs.put(org.apache.kafka.common.config.TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "CreateTime");
    all.set(all.indexOf(samples), new Topic<>(samples.name(), samples.keySerde(), samples.valueSerde(), samples.partitions(),
        samples.nodePartitioned(), configs));
    try (Admin admin = kafka.admin()) {
      TopicAdmin.createMissing(admin, all, Optional.of((short) 1));
    }
    long sampleStartMs = (System.currentTimeMillis() - 2 * 60_000) / 1000 * 1000;
    Instant startedAt = Instant.ofEpochMilli(sampleStartMs - 5_000);
    produce(kafka, topics.clusterConfig(), sampleStartMs - 2_000, List.of(Map.entry("main",
        ClusterConfig.newBuilder().setCluster("main").setTotalCpu(100.0).build())));
    List<Map.Entry<String, TaskSpec>> specs = new ArrayList<>();
    for (int n = 0; n < NODES; n++) {
      for (int t = 0; t < TASKS; t++) {
        specs.add(Map.entry("node-" + n + "/task-" + t, TaskSpec.newBuilder().setNode("node-" + n).setTask("task-" + t)
            .setNcpus(2).setOperation("op").setMemoryNormalBytes(256 * MB)
            .setJobCpuMonitor(JobCpuMonitorConfig.newBuilder().setEnableCpuReclaim(true).build()).build()));
      }
    }
    produce(kafka, topics.taskSpecs(), sampleStartMs - 1_000, specs);
    List<Map.Entry<String, CgroupSample>> input = samples(sampleStartMs);

    // All samples before the app starts, a second a node each: no node falls silent while others go on, which a replay
    // cannot reproduce exactly (docs/replay.md, "Exact or approximate").
    Map<String, Object> props = new HashMap<>(kafka.clientConfig());
    props.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, NodePartitioner.class.getName());
    try (KafkaProducer<String, CgroupSample> producer = new KafkaProducer<>(props, samples.keySerde().serializer(),
        samples.valueSerde().serializer())) {
      input.forEach(e -> producer.send(new ProducerRecord<>(samples.name(), null, e.getValue().getTsMs(), e.getKey(), e.getValue())));
      producer.flush();
    }

    String applicationId = prefix + "app";
    Path state = Files.createDirectories(dirs.resolve("state"));
    StreamsRunner first = start(kafka, topics, applicationId, state);
    // Killed in the middle of the backlog: close(0) waits for no commit, so the restart redoes the open transaction.
    KafkaWait.records(kafka, topics.cpuDecisions(), NODES * TASKS * 2, Duration.ofSeconds(90));
    first.close(Duration.ZERO);
    KafkaWait.until(Duration.ofSeconds(60), "the killed instance to stop", () -> first.state() == KafkaStreams.State.NOT_RUNNING);
    try (StreamsRunner second = start(kafka, topics, applicationId, state)) {
      caughtUp(kafka, topics, applicationId);
    }
    return new Recorded(prefix, startedAt, Instant.now().plusSeconds(1));
  }

  private static StreamsRunner start(KafkaEnv kafka, Topics topics, String applicationId, Path state) throws InterruptedException {
    Map<String, Object> overrides = new HashMap<>();
    overrides.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    overrides.put(StreamsConfig.STATE_DIR_CONFIG, state.toString());
    overrides.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6_000);
    overrides.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1_000);
    StreamsRunner runner = StreamsRunner.start(new StreamsRunner.Settings(kafka.clientConfig(), overrides, topics.settings(),
        Optional.empty()), kafka.registryClient(), new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
    if (!runner.awaitRunning(Duration.ofSeconds(90))) {
      runner.close();
      throw new AssertionError("streams app did not reach RUNNING: " + runner.state());
    }
    return runner;
  }

  private static void caughtUp(KafkaEnv kafka, Topics topics, String applicationId) {
    KafkaWait.consumerGroupCaughtUp(kafka, applicationId, List.of(topics.samples().name(), topics.configBroadcast().name(),
        topics.poolPartials().name(), topics.memoryUsage().name()), Duration.ofSeconds(90));
  }

  /** Produces node-partitioned records, each stamped {@code timestampMs}. */
  private static <V> void produce(KafkaEnv kafka, Topic<String, V> topic, long timestampMs, List<Map.Entry<String, V>> records) {
    Map<String, Object> props = new HashMap<>(kafka.clientConfig());
    props.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, NodePartitioner.class.getName());
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<String, V> producer = new KafkaProducer<>(props, topic.keySerde().serializer(), topic.valueSerde().serializer())) {
      records.forEach(r -> producer.send(new ProducerRecord<>(topic.name(), null, timestampMs, r.getKey(), r.getValue())));
      producer.flush();
    }
  }

  private static OperatorTool tool(KafkaEnv kafka, Recorded run) {
    return new OperatorTool(kafka, run.prefix(), PARTITIONS);
  }

  private static OperatorTool.Run replay(KafkaEnv kafka, Recorded run, Path report, String... more) {
    List<String> args = new ArrayList<>(List.of("replay", "--from", run.startedAt().toString(), "--to", run.endedAt().toString(),
        "--report", report.toString()));
    args.addAll(List.of(more));
    return tool(kafka, run).capture(args.toArray(String[]::new));
  }

  @Test
  void replayingARecordedRunWithARestartGivesEveryTasksDecisionsBitForBit(KafkaEnv kafka, @TempDir Path dir) throws Exception {
    Recorded run = recorded(kafka, dir);
    Path html = dir.resolve("incident.html");
    Map<String, Long> endOffsetsBefore = endOffsets(kafka, run.prefix());
    java.util.Set<String> groupsBefore = groups(kafka);

    OperatorTool.Run result = replay(kafka, run, html);

    assertThat(endOffsets(kafka, run.prefix())).as("replay produces nothing").isEqualTo(endOffsetsBefore);
    assertThat(groups(kafka)).as("replay joins no consumer group").isEqualTo(groupsBefore);
    assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
    ReplayReport report = ReportJson.read(dir.resolve("incident.json"));
    assertThat(report.tasks()).hasSize(NODES * TASKS);
    assertThat(report.tasks()).allSatisfy(task -> {
      assertThat(task.exactness().exact()).as(task.key() + ": " + task.exactness().reason()).isTrue();
      assertThat(task.cpu().identical()).as(task.key() + ": " + task.cpu().firstDifference()).isTrue();
      assertThat(task.freeze().identical()).as(task.key() + ": " + task.freeze().firstDifference()).isTrue();
    });
    ReplayReport.Summary summary = report.summary();
    assertThat(summary.exactTasksMatching()).isEqualTo(NODES * TASKS);
    assertThat(summary.recordedCpuDecisions()).as("reclaim moved limits").isGreaterThan(NODES * TASKS * 2L)
        .isEqualTo(summary.replayedCpuDecisions());
    assertThat(summary.recordedFreezeDecisions()).as("the gate froze and thawed").isGreaterThan(0)
        .isEqualTo(summary.replayedFreezeDecisions());
    assertThat(summary.reclaimedCpuSeconds().replayed()).isEqualTo(summary.reclaimedCpuSeconds().recorded()).isPositive();
    assertThat(summary.frozenTaskSeconds().replayed()).isEqualTo(summary.frozenTaskSeconds().recorded()).isPositive();
    assertThat(report.pools()).isNotEmpty();
    assertThat(Files.readString(html)).contains("<svg").doesNotContain("https://").doesNotContain("http://");
    assertThat(result.out()).contains("tasks: 12, exact 12, exact and identical 12, differing 0").contains("records/s");
  }

  @Test
  void whatIfChangesTheFiguresItShouldAndTheAdvisorNamesSettingsItReplayed(KafkaEnv kafka, @TempDir Path dir) throws Exception {
    Recorded run = recorded(kafka, dir);

    OperatorTool.Run noGating = replay(kafka, run, dir.resolve("off.html"), "--set", "cluster.peak_gating_mode=OFF",
        "--set", "task.*.job_cpu_monitor.enable_cpu_reclaim=false");

    assertThat(noGating.exitCode()).as(noGating.out() + noGating.err()).isZero();
    ReplayReport off = ReportJson.read(dir.resolve("off.json"));
    assertThat(off.overrides()).containsExactly("cluster.peak_gating_mode=OFF", "task.*.job_cpu_monitor.enable_cpu_reclaim=false");
    assertThat(off.summary().frozenTaskSeconds().recorded()).isPositive();
    assertThat(off.summary().frozenTaskSeconds().replayed()).isZero();
    assertThat(off.summary().reclaimedCpuSeconds().recorded()).isPositive();
    assertThat(off.summary().reclaimedCpuSeconds().replayed()).isZero();
    assertThat(off.nodes()).allSatisfy(node -> assertThat(node.replayedFrozen()).isEmpty());

    OperatorTool.Run advised = replay(kafka, run, dir.resolve("advice.html"), "--advise", "cpu", "--max-added-over-limit", "0s");

    assertThat(advised.exitCode()).as(advised.out() + advised.err()).isZero();
    ReplayReport.Advice advice = ReportJson.read(dir.resolve("advice.json")).advice();
    assertThat(advice.candidates()).hasSizeGreaterThan(10);
    ReplayReport.Candidate best = advice.candidates().get(0);
    assertThat(best.withinBound()).isTrue();
    assertThat(best.overLimitSeconds()).isLessThanOrEqualTo(advice.baseline().overLimitSeconds());
    assertThat(best.reclaimedCpuSeconds()).isGreaterThanOrEqualTo(advice.baseline().reclaimedCpuSeconds());
    // The figure is the replay behind it: the same --set arguments reproduce it.
    List<String> args = new ArrayList<>();
    best.sets().forEach(s -> args.addAll(List.of("--set", s)));
    OperatorTool.Run again = replay(kafka, run, dir.resolve("best.html"), args.toArray(String[]::new));
    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(ReportJson.read(dir.resolve("best.json")).summary().reclaimedCpuSeconds().replayed())
        .isEqualTo(best.reclaimedCpuSeconds());
  }

  @Test
  void nodesAndPoolsNarrowWhatIsReadAndReported(KafkaEnv kafka, @TempDir Path dir) throws Exception {
    Recorded run = recorded(kafka, dir);

    OperatorTool.Run oneNode = replay(kafka, run, dir.resolve("node.html"), "--nodes", "node-1");

    assertThat(oneNode.exitCode()).as(oneNode.out() + oneNode.err()).isZero();
    ReplayReport report = ReportJson.read(dir.resolve("node.json"));
    assertThat(report.tasks()).extracting(ReplayReport.TaskReport::key).containsExactly("node-1/task-0", "node-1/task-1", "node-1/task-2");
    assertThat(report.tasks()).allSatisfy(t -> assertThat(t.cpu().identical()).as(t.key()).isTrue());
    assertThat(report.pools()).allSatisfy(p -> assertThat(p.exactness().reason()).contains("only nodes node-1 were read"));

    OperatorTool.Run noPool = replay(kafka, run, dir.resolve("pool.html"), "--pools", "no-such-pool");

    assertThat(noPool.exitCode()).isZero();
    assertThat(ReportJson.read(dir.resolve("pool.json")).tasks()).isEmpty();
  }

  /** Every partition's end offset of every topic with the prefix. */
  private static Map<String, Long> endOffsets(KafkaEnv kafka, String prefix) throws Exception {
    try (Admin admin = kafka.admin()) {
      java.util.Set<String> names = new java.util.TreeSet<>(admin.listTopics().names().get());
      names.removeIf(n -> !n.startsWith(prefix));
      Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> latest = new HashMap<>();
      admin.describeTopics(names).allTopicNames().get().forEach((name, description) -> description.partitions()
          .forEach(p -> latest.put(new org.apache.kafka.common.TopicPartition(name, p.partition()),
              org.apache.kafka.clients.admin.OffsetSpec.latest())));
      Map<String, Long> offsets = new java.util.TreeMap<>();
      admin.listOffsets(latest).all().get().forEach((tp, info) -> offsets.put(tp.toString(), info.offset()));
      return offsets;
    }
  }

  private static java.util.Set<String> groups(KafkaEnv kafka) throws Exception {
    try (Admin admin = kafka.admin()) {
      java.util.Set<String> ids = new java.util.TreeSet<>();
      admin.listGroups().all().get().forEach(g -> ids.add(g.groupId()));
      return ids;
    }
  }

  @Test
  void badInputIsRefusedNamingItAndNothingIsWritten(KafkaEnv kafka, @TempDir Path dir) throws Exception {
    Recorded run = recorded(kafka, dir);
    Path html = dir.resolve("bad.html");

    OperatorTool.Run unknownKey = replay(kafka, run, html, "--set", "cluster.no_such_field=1");
    assertThat(unknownKey.exitCode()).isEqualTo(2);
    assertThat(unknownKey.err()).contains("--set cluster.no_such_field=1: unknown ClusterConfig field 'no_such_field'");

    OperatorTool.Run badValue = replay(kafka, run, html, "--set", "pool.research.weight=-2");
    assertThat(badValue.exitCode()).isEqualTo(2);
    assertThat(badValue.err()).contains("--set pool.research.weight=-2").contains("weight");

    OperatorTool.Run unknownTask = replay(kafka, run, html, "--set", "task.node-9/nope.job_cpu_monitor.smoothing_factor=0.2");
    assertThat(unknownTask.exitCode()).isEqualTo(2);
    assertThat(unknownTask.err()).contains("no spec of task node-9/nope was recorded");

    OperatorTool.Run empty = tool(kafka, run).capture("replay", "--from", "2020-01-01T00:00:00Z", "--to", "2020-01-01T01:00:00Z",
        "--report", html.toString());
    assertThat(empty.exitCode()).isEqualTo(1);
    assertThat(empty.err()).contains("no samples in " + run.prefix() + "samples from 2020-01-01T00:00:00Z");

    OperatorTool.Run badTime = tool(kafka, run).capture("replay", "--from", "yesterday", "--report", html.toString());
    assertThat(badTime.exitCode()).isEqualTo(2);
    assertThat(badTime.err()).contains("--from 'yesterday' is not a time");

    OperatorTool.Run noTopics = new OperatorTool(kafka, "no-such-prefix.", PARTITIONS)
        .capture("replay", "--from", run.startedAt().toString(), "--report", html.toString());
    assertThat(noTopics.exitCode()).isEqualTo(1);
    assertThat(noTopics.err()).contains("no topic no-such-prefix.samples");

    String skewed = TestTopics.uniquePrefix("skewed");
    Topics skewedTopics = Topics.create(new Topics.Settings(skewed, PARTITIONS, true), kafka.registryClient());
    try (Admin admin = kafka.admin()) {
      admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic(skewed + "cpu-decisions", PARTITIONS - 1, (short) 1)))
          .all().get();
      TopicAdmin.createMissing(admin, skewedTopics.all(), Optional.of((short) 1));
    }
    OperatorTool.Run fewerPartitions = new OperatorTool(kafka, skewed, PARTITIONS)
        .capture("replay", "--from", run.startedAt().toString(), "--report", html.toString());
    assertThat(fewerPartitions.exitCode()).isEqualTo(1);
    assertThat(fewerPartitions.err()).contains(skewed + "cpu-decisions has 2 partitions where 3 were expected");

    assertThat(html).doesNotExist();
    assertThat(dir.resolve("bad.json")).doesNotExist();
  }
}
