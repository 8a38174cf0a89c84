package io.quotaflow.streams.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.embedded.junit.KafkaEnv;
import io.quotaflow.embedded.junit.KafkaWait;
import io.quotaflow.embedded.junit.WithKafka;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.JobCpuMonitorConfig;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.streams.topology.StreamsRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN's claim on a real broker: an app killed mid-stream and restarted — on its own state, or
 * on none so that it restores from the changelogs — publishes exactly the decisions of an app that
 * ran through (exactly-once: nothing lost, nothing doubled).
 */
@WithKafka
class RestartDeterminismIntegrationTest {

  private static final int NODES = 6;
  private static final int TASKS = 3;
  private static final int SECONDS = 60;

  /** Specs with reclaim on and 60 s of samples of idle, busy and alternating tasks, ending a few minutes before now. */
  private static List<Map.Entry<String, CgroupSample>> samples(long startMs) {
    Random random = new Random(7);
    List<Map.Entry<String, CgroupSample>> samples = new ArrayList<>();
    long[][] usage = new long[NODES][TASKS];
    for (int s = 0; s < SECONDS; s++) {
      for (int n = 0; n < NODES; n++) {
        for (int t = 0; t < TASKS; t++) {
          double cores = t == 0 ? 0.05 : t == 1 ? 1.9 : (s / 15) % 2 == 0 ? 0.1 : 1.8;
          usage[n][t] += Math.round(cores * 1_000_000 * (0.95 + 0.1 * random.nextDouble()));
          CgroupSample sample = CgroupSample.newBuilder().setNode("node-" + n).setTask("task-" + t).setTsMs(startMs + s * 1000L)
              .setCpuUsageUsec(usage[n][t]).setMemoryBytes(1L << 26).setState(SampleState.RUNNING).setSeq(s).build();
          samples.add(Map.entry("node-" + n + "/task-" + t, sample));
        }
      }
    }
    return samples;
  }

  private static List<Map.Entry<String, TaskSpec>> specs() {
    List<Map.Entry<String, TaskSpec>> specs = new ArrayList<>();
    for (int n = 0; n < NODES; n++) {
      for (int t = 0; t < TASKS; t++) {
        specs.add(Map.entry("node-" + n + "/task-" + t, TaskSpec.newBuilder().setNode("node-" + n).setTask("task-" + t).setNcpus(2)
            .setJobCpuMonitor(JobCpuMonitorConfig.newBuilder().setEnableCpuReclaim(true).build()).build()));
      }
    }
    return specs;
  }

  /** Runs the whole input through one app and returns every task's decisions in order. */
  private static Map<String, List<CpuDecision>> decisionsByTask(KafkaEnv kafka, StreamsAppFixture app, int count) {
    Map<String, List<CpuDecision>> byTask = new TreeMap<>();
    for (ConsumerRecord<String, CpuDecision> r : KafkaWait.records(kafka, app.topics.cpuDecisions(), count, Duration.ofSeconds(90))) {
      byTask.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value());
    }
    return byTask;
  }

  private static int total(Map<String, List<CpuDecision>> byTask) {
    return byTask.values().stream().mapToInt(List::size).sum();
  }

  @Test
  void killedAndRestartedAppsPublishTheSameDecisionsAsAnUninterruptedOne(KafkaEnv kafka, @TempDir Path dirs) throws Exception {
    long startMs = System.currentTimeMillis() - 3 * 60_000;
    List<Map.Entry<String, CgroupSample>> input = samples(startMs);

    StreamsAppFixture reference = new StreamsAppFixture(kafka, "ref");
    reference.produce(reference.topics.taskSpecs(), specs());
    reference.produce(reference.topics.samples(), input);
    Map<String, List<CpuDecision>> expected;
    try (StreamsRunner runner = reference.start(Files.createDirectory(dirs.resolve("ref")))) {
      KafkaWait.consumerGroupCaughtUp(kafka, reference.applicationId, List.of(reference.topics.samples().name()), Duration.ofSeconds(90));
      expected = decisionsByTask(kafka, reference, 1);
    }
    int expectedCount = total(expected);
    assertThat(expected).hasSize(NODES * TASKS);
    assertThat(expectedCount).isGreaterThan(NODES * TASKS * 2); // INITIAL plus reclaim moves for most tasks

    for (boolean freshState : new boolean[] {false, true}) {
      StreamsAppFixture app = new StreamsAppFixture(kafka, freshState ? "fresh" : "same");
      app.produce(app.topics.taskSpecs(), specs());
      app.produce(app.topics.samples(), input.subList(0, input.size() / 2));
      Path state = Files.createDirectory(dirs.resolve(app.applicationId));
      StreamsRunner first = app.start(state);
      // Killed mid-stream: the second half is still arriving, and close(0) waits for no commit.
      app.produce(app.topics.samples(), input.subList(input.size() / 2, input.size()));
      KafkaWait.records(kafka, app.topics.cpuDecisions(), expectedCount / 3, Duration.ofSeconds(90));
      first.close(Duration.ZERO);
      // A killed process frees its state directory at once; an in-process kill frees it when its threads are gone.
      KafkaWait.until(Duration.ofSeconds(60), "the killed instance to stop",
          () -> first.state() == org.apache.kafka.streams.KafkaStreams.State.NOT_RUNNING);
      Path restartState = freshState ? Files.createDirectory(dirs.resolve(app.applicationId + "-fresh")) : state;
      try (StreamsRunner second = app.start(restartState)) {
        KafkaWait.consumerGroupCaughtUp(kafka, app.applicationId, List.of(app.topics.samples().name()), Duration.ofSeconds(90));
        Map<String, List<CpuDecision>> actual = decisionsByTask(kafka, app, expectedCount);
        assertThat(actual).as(freshState ? "restart on a fresh state dir" : "restart on the same state dir").isEqualTo(expected);
      }
    }
  }
}
