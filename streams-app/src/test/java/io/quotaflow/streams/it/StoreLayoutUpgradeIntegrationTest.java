package io.quotaflow.streams.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.FinishedTaskUsageRecord;
import io.quotaflow.schemas.avro.internal.GateTaskRecord;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import io.quotaflow.schemas.avro.internal.TaskUsageStatsRecord;
import io.quotaflow.streams.topology.StreamsRunner;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.WithKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a real broker, an app restored from changelogs laid out as an older version left them. The usage totals moved
 * from {@code memory-usage-stats} into the gate's task records: a run under way carries over, so its GONE teaches
 * the whole run, and the old entry is deleted. A task's spec moved out of its state into {@code cpu-task-spec}, and
 * the ids out of the state and the gate's task record into their keys alone: a state with its spec and ids inside is
 * read with them, and both records are written again without.
 */
@WithKafka
class StoreLayoutUpgradeIntegrationTest {

  private static final long MB = 1L << 20;
  private static final String TASK = "n1/x";
  /** Sample times start a minute back, on a whole second: a new instance for each test. */
  private final long startMs = (System.currentTimeMillis() - 60_000) / 1000 * 1000;

  private static List<Map.Entry<String, CgroupSample>> samples(long fromMs, long... usageMb) {
    List<Map.Entry<String, CgroupSample>> out = new ArrayList<>();
    for (int i = 0; i < usageMb.length; i++) {
      out.add(Map.entry(TASK, sample(fromMs + i * 1000L, usageMb[i] * MB, SampleState.RUNNING)));
    }
    return out;
  }

  private static CgroupSample sample(long tsMs, long anonBytes, SampleState state) {
    return CgroupSample.newBuilder().setNode("n1").setTask("x").setTsMs(tsMs).setCpuUsageUsec(tsMs)
        .setMemoryBytes(anonBytes + 64 * MB).setMemoryAnonBytes(anonBytes).setState(state).build();
  }

  @Test
  void aStateWithItsSpecAndIdsInsideCarriesOnAndIsWrittenWithout(KafkaEnv kafka, @TempDir Path dirs) throws Exception {
    StreamsAppFixture app = new StreamsAppFixture(kafka, "ids-upgrade");
    String stateChangelog = app.changelog("cpu-task-state");
    String specChangelog = app.changelog("cpu-task-spec");
    String tasksChangelog = app.changelog("peak-gate-tasks");
    Deserializer<TaskCpuState> states = app.topics.valueSerde(TaskCpuState.class).deserializer();
    Deserializer<GateTaskRecord> tasks = app.topics.valueSerde(GateTaskRecord.class).deserializer();
    TaskSpec spec = TaskSpec.newBuilder().setNode("n1").setTask("x").setNcpus(2).setOperation("etl").build();
    app.produce(app.topics.taskSpecs(), List.of(Map.entry(TASK, spec)));

    try (StreamsRunner first = app.start(Files.createDirectory(dirs.resolve("first")))) {
      app.produce(app.topics.samples(), samples(startMs, 10, 20, 30));
      latest(kafka, stateChangelog, states, s -> s.getLastSampleTsMs() == startMs + 2_000);
      latest(kafka, tasksChangelog, tasks, r -> r.getUsage() != null && r.getUsage().getSamples() == 3);
    }

    // The records as the oldest layout has them: the ids inside the state, its decision and the gate's record, the
    // spec inside the state and no spec store.
    ConsumerRecord<String, TaskCpuState> state = latest(kafka, stateChangelog, states, s -> true);
    assertThat(List.of(state.value().getNode(), state.value().getTask(), state.value().getLastDecision().getNode()))
        .as("this version writes no ids").containsOnly("");
    TaskCpuState oldState = TaskCpuState.newBuilder(state.value()).setNode("n1").setTask("x").setSpec(spec)
        .setLastDecision(CpuDecision.newBuilder(state.value().getLastDecision()).setNode("n1").setTask("x").build())
        .build();
    ConsumerRecord<String, GateTaskRecord> gateTask = latest(kafka, tasksChangelog, tasks, r -> true);
    assertThat(gateTask.value().getTask()).as("this version writes no task id").isEmpty();
    app.produceRaw(stateChangelog, state.partition(), TASK,
        app.topics.valueSerde(TaskCpuState.class).serializer().serialize(stateChangelog, oldState));
    app.produceRaw(specChangelog, state.partition(), TASK, null);
    app.produceRaw(tasksChangelog, gateTask.partition(), TASK,
        app.topics.valueSerde(GateTaskRecord.class).serializer().serialize(tasksChangelog,
            GateTaskRecord.newBuilder(gateTask.value()).setTask("x").build()));

    // A new state directory: the stores come back from the changelogs.
    try (StreamsRunner second = app.start(Files.createDirectory(dirs.resolve("second")))) {
      // A wider spec republishes the task at once only if its state came back: a task never sampled waits for its
      // first sample.
      app.produce(app.topics.taskSpecs(), List.of(Map.entry(TASK, TaskSpec.newBuilder(spec).setNcpus(4).build())));
      ConsumerRecord<String, CpuDecision> republished = latest(kafka, app.topics.cpuDecisions().name(),
          app.topics.cpuDecisions().valueSerde().deserializer(), d -> d != null && d.getHardLimitCpu() == 4.0);
      assertThat(republished.value().getReason()).startsWith("SPEC_CHANGED");
      assertThat(republished.value().getNode() + "/" + republished.value().getTask()).isEqualTo(TASK);

      app.produce(app.topics.samples(), samples(startMs + 3_000, 40));
      TaskCpuState rewritten = latest(kafka, stateChangelog, states, s -> s.getLastSampleTsMs() == startMs + 3_000)
          .value();
      assertThat(rewritten.getSpec()).as("written without its spec").isNull();
      assertThat(List.of(rewritten.getNode(), rewritten.getTask())).as("and without ids").containsOnly("");
      assertThat(latest(kafka, specChangelog, app.topics.taskSpecs().valueSerde().deserializer(), s -> s != null)
          .value().getNcpus()).as("the spec in its own store").isEqualTo(4.0);
      GateTaskRecord gate = latest(kafka, tasksChangelog, tasks, r -> r.getUsage() != null && r.getUsage().getSamples() == 4)
          .value();
      assertThat(gate.getHasSpec()).as("the gate's task found by the key's id, its spec kept").isTrue();
      assertThat(gate.getTask()).isEmpty();
    }
  }

  @Test
  void aRunUnderWayAtTheUpgradeTeachesItsWholeRun(KafkaEnv kafka, @TempDir Path dirs) throws Exception {
    StreamsAppFixture app = new StreamsAppFixture(kafka, "usage-upgrade");
    String tasksChangelog = app.changelog("peak-gate-tasks");
    String oldChangelog = app.changelog("memory-usage-stats");
    Deserializer<GateTaskRecord> tasks = app.topics.valueSerde(GateTaskRecord.class).deserializer();
    app.produce(app.topics.taskSpecs(),
        List.of(Map.entry(TASK, TaskSpec.newBuilder().setNode("n1").setTask("x").setNcpus(1).setOperation("etl").build())));

    try (StreamsRunner first = app.start(Files.createDirectory(dirs.resolve("first")))) {
      app.produce(app.topics.samples(), samples(startMs, 10, 20, 30));
      latest(kafka, tasksChangelog, tasks, r -> r.getUsage() != null && r.getUsage().getSamples() == 3);
    }

    // The stores as the older version left them: the totals in memory-usage-stats, none in the task's record.
    ConsumerRecord<String, GateTaskRecord> record = latest(kafka, tasksChangelog, tasks, r -> true);
    TaskUsageStatsRecord totals = record.value().getUsage();
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(kafka.clientConfig(), new StringSerializer(), new ByteArraySerializer())) {
      producer.send(new ProducerRecord<>(oldChangelog, record.partition(), TASK,
          app.topics.valueSerde(TaskUsageStatsRecord.class).serializer().serialize(oldChangelog, totals)));
      producer.send(new ProducerRecord<>(tasksChangelog, record.partition(), TASK,
          app.topics.valueSerde(GateTaskRecord.class).serializer().serialize(tasksChangelog,
              GateTaskRecord.newBuilder(record.value()).setUsage(null).build())));
      producer.flush();
    }

    // A new state directory: the stores come back from the changelogs.
    try (StreamsRunner second = app.start(Files.createDirectory(dirs.resolve("second")))) {
      List<Map.Entry<String, CgroupSample>> rest = new ArrayList<>(samples(startMs + 3_000, 40, 50));
      rest.add(Map.entry(TASK, sample(startMs + 5_000, 0, SampleState.GONE)));
      app.produce(app.topics.samples(), rest);

      List<ConsumerRecord<String, FinishedTaskUsageRecord>> finished =
          KafkaWait.records(kafka, app.topics.memoryUsage(), 1, Duration.ofSeconds(90));
      assertThat(finished).hasSize(1);
      // 150 MB over five samples; without the carry-over it would be the last two's 45 MB.
      assertThat(finished.get(0).value().getMeanBytes()).isEqualTo(30 * MB);
      assertThat(finished.get(0).value().getMaxBytes()).isEqualTo(50 * MB);
      ConsumerRecord<String, TaskUsageStatsRecord> old =
          latest(kafka, oldChangelog, app.topics.valueSerde(TaskUsageStatsRecord.class).deserializer(), r -> r == null);
      assertThat(old.value()).as("the old store's entry is deleted once carried over").isNull();
    }
  }

  /** The newest record of {@link #TASK} in {@code changelog}, once {@code until} holds for its value. */
  private static <V> ConsumerRecord<String, V> latest(KafkaEnv kafka, String changelog, Deserializer<V> values,
      Predicate<V> until) {
    List<ConsumerRecord<String, V>> read = KafkaWait.recordsUntil(kafka, changelog, new StringDeserializer(), values,
        seen -> {
          ConsumerRecord<String, V> last = lastOf(seen);
          return last != null && until.test(last.value());
        }, "the newest record of " + TASK + " as expected", Duration.ofSeconds(90));
    return lastOf(read);
  }

  private static <V> ConsumerRecord<String, V> lastOf(List<ConsumerRecord<String, V>> records) {
    ConsumerRecord<String, V> last = null;
    for (ConsumerRecord<String, V> r : records) {
      if (r.key().equals(TASK)) {
        last = r;
      }
    }
    return last;
  }
}
