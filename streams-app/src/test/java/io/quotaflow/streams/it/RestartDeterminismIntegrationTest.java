package io.quotaflow.streams.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.GateTable;
import io.quotaflow.schemas.avro.PoolState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.streams.topology.StreamsRunner;
import io.quotaflow.testharness.GatingMinute;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.WithKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN's claim on a real broker: an app killed mid-stream and restarted — on its own state, or
 * on none so that it restores from the changelogs — publishes exactly the CPU and freeze decisions
 * and gate tables of an app that ran through (exactly-once: nothing lost, nothing doubled), learned profiles included,
 * and the same pool-state.
 */
@WithKafka
class RestartDeterminismIntegrationTest {

  private static final int NODES = 6;
  private static final int TASKS = GatingMinute.TASKS;
  private static final int SECONDS = GatingMinute.SECONDS;

  /** {@link GatingMinute}'s samples, keyed as the collector keys them. */
  private static List<Map.Entry<String, CgroupSample>> samples(long startMs) {
    return GatingMinute.samples(NODES, startMs).stream().map(s -> Map.entry(s.getNode() + "/" + s.getTask(), s)).toList();
  }

  private static List<Map.Entry<String, TaskSpec>> specs() {
    return GatingMinute.specs(NODES).stream().map(s -> Map.entry(s.getNode() + "/" + s.getTask(), s)).toList();
  }

  /** Every task's freeze decisions in order, once at least {@code count} are there. */
  private static Map<String, List<FreezeDecision>> freezesByTask(KafkaEnv kafka, StreamsAppFixture app, int count) {
    Map<String, List<FreezeDecision>> byTask = new TreeMap<>();
    for (ConsumerRecord<String, FreezeDecision> r : KafkaWait.records(kafka, app.topics.freezeDecisions(), count, Duration.ofSeconds(90))) {
      byTask.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value());
    }
    return byTask;
  }

  /** Every node's gate tables in order, once at least {@code count} are there. */
  private static Map<String, List<GateTable>> tablesByNode(KafkaEnv kafka, StreamsAppFixture app, int count) {
    Map<String, List<GateTable>> byNode = new TreeMap<>();
    for (ConsumerRecord<String, GateTable> r : KafkaWait.records(kafka, app.topics.gateTables(), count, Duration.ofSeconds(90))) {
      byNode.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value());
    }
    return byNode;
  }

  /** Caught up on its inputs, the learned-profile loop included. */
  private static void caughtUp(KafkaEnv kafka, StreamsAppFixture app) {
    KafkaWait.consumerGroupCaughtUp(kafka, app.applicationId,
        List.of(app.topics.samples().name(), app.topics.memoryUsage().name(), app.topics.configBroadcast().name(),
            app.topics.poolPartials().name()),
        Duration.ofSeconds(90));
  }

  /** Runs the whole input through one app and returns every task's decisions in order. */
  private static Map<String, List<CpuDecision>> decisionsByTask(KafkaEnv kafka, StreamsAppFixture app, int count) {
    Map<String, List<CpuDecision>> byTask = new TreeMap<>();
    for (ConsumerRecord<String, CpuDecision> r : KafkaWait.records(kafka, app.topics.cpuDecisions(), count, Duration.ofSeconds(90))) {
      byTask.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value());
    }
    return byTask;
  }

  /** Every pool's pool-state records by period end, once at least {@code count} are there. */
  private static Map<String, PoolState> poolStates(KafkaEnv kafka, StreamsAppFixture app, int count) {
    Map<String, PoolState> byPoolAndTime = new TreeMap<>();
    for (ConsumerRecord<String, PoolState> r : KafkaWait.records(kafka, app.topics.poolState(), count, Duration.ofSeconds(90))) {
      byPoolAndTime.put(r.key() + "@" + r.value().getTsMs(), r.value());
    }
    return byPoolAndTime;
  }

  /**
   * An app whose samples topic keeps the samples' own times as record times (every run then sees the
   * same periods of stream time), with the cluster's CPU, and the specs, given just before the samples.
   * The cluster is large enough that no pool is capped: a cap travels through pool-partials and back,
   * so when a task takes it up depends on how far ahead its partition ran (docs/pools.md); pool-state
   * itself does not.
   */
  private static StreamsAppFixture app(KafkaEnv kafka, String name, long startMs) {
    StreamsAppFixture app = new StreamsAppFixture(kafka, name, kafka.registryClient(), StreamsAppFixture.PARTITIONS, true);
    long configMs = startMs - 1000;
    app.produceAt(app.topics.clusterConfig(), List.of(new ProducerRecord<>(app.topics.clusterConfig().name(), null,
        configMs - 1000, "main", ClusterConfig.newBuilder().setCluster("main").setTotalCpu(100.0).build())));
    app.produceAt(app.topics.taskSpecs(), specs().stream().map(e -> new ProducerRecord<>(app.topics.taskSpecs().name(),
        null, configMs, e.getKey(), e.getValue())).toList());
    return app;
  }

  /** Seconds of samples produced at once, as collectors would over that time. */
  private static final int CHUNK_S = 5;

  private static List<Map.Entry<String, CgroupSample>> inSeconds(List<Map.Entry<String, CgroupSample>> input, long fromS,
      long toS) {
    long startMs = input.get(0).getValue().getTsMs();
    return input.stream().filter(e -> e.getValue().getTsMs() >= startMs + fromS * 1000
        && e.getValue().getTsMs() < startMs + toS * 1000).toList();
  }

  /**
   * Feeds seconds [fromS, toS) of the input a few seconds at a time, each once the app has caught up
   * with the last, as live collectors would: the node partitions then stay within a few periods of
   * each other, which the pool barrier relies on (a partition more than 10 periods behind is left
   * behind, docs/pools.md), and every learned profile lands before the next seconds are decided.
   */
  private static void feedLive(KafkaEnv kafka, StreamsAppFixture app, List<Map.Entry<String, CgroupSample>> input,
      int fromS, int toS) {
    for (int s = fromS; s < toS; s += CHUNK_S) {
      feed(app, inSeconds(input, s, Math.min(toS, s + CHUNK_S)));
      caughtUp(kafka, app);
    }
  }

  private static void feed(StreamsAppFixture app, List<Map.Entry<String, CgroupSample>> samples) {
    app.produceAt(app.topics.samples(), samples.stream().map(e -> new ProducerRecord<>(app.topics.samples().name(),
        null, e.getValue().getTsMs(), e.getKey(), e.getValue())).toList());
  }

  private static int total(Map<String, List<CpuDecision>> byTask) {
    return byTask.values().stream().mapToInt(List::size).sum();
  }

  @Test
  void killedAndRestartedAppsPublishTheSameDecisionsAsAnUninterruptedOne(KafkaEnv kafka, @TempDir Path dirs) throws Exception {
    long startMs = (System.currentTimeMillis() - 3 * 60_000) / 1000 * 1000;
    List<Map.Entry<String, CgroupSample>> input = samples(startMs);

    StreamsAppFixture reference = app(kafka, "ref", startMs);
    Map<String, List<CpuDecision>> expected;
    Map<String, List<FreezeDecision>> expectedFreezes;
    Map<String, List<GateTable>> expectedTables;
    Map<String, PoolState> expectedPools;
    try (StreamsRunner runner = reference.start(Files.createDirectory(dirs.resolve("ref")))) {
      feedLive(kafka, reference, input, 0, SECONDS);
      expected = decisionsByTask(kafka, reference, 1);
      expectedFreezes = freezesByTask(kafka, reference, 1);
      expectedTables = tablesByNode(kafka, reference, 1);
      expectedPools = poolStates(kafka, reference, SECONDS - 5);
    }
    int expectedCount = total(expected);
    assertThat(expected).hasSize(NODES * TASKS);
    assertThat(expectedCount).isGreaterThan(NODES * TASKS * 2); // INITIAL plus reclaim moves for most tasks
    int expectedFreezeCount = expectedFreezes.values().stream().mapToInt(List::size).sum();
    assertThat(expectedFreezes.keySet()).as("task 3 is gated by the profile task 0 taught its operation")
        .contains("node-0/task-3", "node-5/task-3");
    assertThat(expectedFreezes.values().stream().flatMap(List::stream).map(FreezeDecision::getReason))
        .contains("PEAK_SLOT_BUSY", "SLOT_FREED");
    int expectedTableCount = expectedTables.values().stream().mapToInt(List::size).sum();
    System.out.printf("reference run: %d CPU decisions, %d freeze decisions, %d gate tables over %d nodes x %d s%n",
        expectedCount, expectedFreezeCount, expectedTableCount, NODES, SECONDS);
    assertThat(expectedTables).hasSize(NODES);
    assertThat(expectedTableCount).as("each node's table changes as its tasks peak").isGreaterThan(NODES * 4);

    for (boolean freshState : new boolean[] {false, true}) {
      StreamsAppFixture app = app(kafka, freshState ? "fresh" : "same", startMs);
      Path state = Files.createDirectory(dirs.resolve(app.applicationId));
      StreamsRunner first = app.start(state);
      feedLive(kafka, app, input, 0, SECONDS / 2);
      // Killed mid-stream: the next seconds are still being processed, and close(0) waits for no commit.
      feed(app, inSeconds(input, SECONDS / 2, SECONDS / 2 + CHUNK_S));
      KafkaWait.records(kafka, app.topics.cpuDecisions(), expectedCount / 3, Duration.ofSeconds(90));
      first.close(Duration.ZERO);
      // A killed process frees its state directory at once; an in-process kill frees it when its threads are gone.
      KafkaWait.until(Duration.ofSeconds(60), "the killed instance to stop",
          () -> first.state() == org.apache.kafka.streams.KafkaStreams.State.NOT_RUNNING);
      Path restartState = freshState ? Files.createDirectory(dirs.resolve(app.applicationId + "-fresh")) : state;
      try (StreamsRunner second = app.start(restartState)) {
        caughtUp(kafka, app);
        feedLive(kafka, app, input, SECONDS / 2 + CHUNK_S, SECONDS);
        Map<String, List<CpuDecision>> actual = decisionsByTask(kafka, app, expectedCount);
        assertThat(actual).as(freshState ? "restart on a fresh state dir" : "restart on the same state dir").isEqualTo(expected);
        assertThat(freezesByTask(kafka, app, expectedFreezeCount))
            .as(freshState ? "freezes after a restart on a fresh state dir" : "freezes after a restart on the same state dir")
            .isEqualTo(expectedFreezes);
        assertThat(tablesByNode(kafka, app, expectedTableCount))
            .as(freshState ? "gate tables after a restart on a fresh state dir" : "gate tables after a restart on the same state dir")
            .isEqualTo(expectedTables);
        // V, L and the barrier come back from the changelogs: the pool updates go on as if never stopped
        Map<String, PoolState> pools = poolStates(kafka, app, expectedPools.size() - 2);
        List<String> common = expectedPools.keySet().stream().filter(pools::containsKey).toList();
        assertThat(common).hasSizeGreaterThan(expectedPools.size() - 3);
        List<String> differing = common.stream().filter(key -> !pools.get(key).equals(expectedPools.get(key)))
            .map(key -> key + " (" + (pools.get(key).getTsMs() - startMs) / 1000 + " s: demand " + pools.get(key).getDemandCpu()
                + " vs " + expectedPools.get(key).getDemandCpu() + ")").toList();
        assertThat(differing).as(freshState ? "pool-state after a restart on a fresh state dir" : "pool-state after a restart on the same state dir").isEmpty();
      }
    }
  }
}
