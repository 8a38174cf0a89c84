package io.quotaflow.streams.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.FinishedTaskUsageRecord;
import io.quotaflow.schemas.avro.internal.GateTaskRecord;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import io.quotaflow.schemas.avro.internal.TaskRecord;
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
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a real broker, an app restored from changelogs laid out as an older version left them. A task's CPU state and
 * gate record moved from {@code cpu-task-state} and {@code peak-gate-tasks} into one record in {@code task-state}:
 * an instance moves them there when it starts and deletes them in the old stores. The usage totals moved
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
    String recordsChangelog = app.changelog("task-state");
    String specChangelog = app.changelog("cpu-task-spec");
    Deserializer<TaskRecord> records = app.topics.valueSerde(TaskRecord.class).deserializer();
    TaskSpec spec = TaskSpec.newBuilder().setNode("n1").setTask("x").setNcpus(2).setOperation("etl").build();
    app.produce(app.topics.taskSpecs(), List.of(Map.entry(TASK, spec)));

    try (StreamsRunner first = app.start(Files.createDirectory(dirs.resolve("first")))) {
      app.produce(app.topics.samples(), samples(startMs, 10, 20, 30));
      latest(kafka, recordsChangelog, records, r -> r.getCpu() != null && r.getCpu().getLastSampleTsMs() == startMs + 2_000
          && r.getGate() != null && r.getGate().getUsage() != null && r.getGate().getUsage().getSamples() == 3);
    }

    // The records as the oldest layout has them: in two stores, the ids inside the state, its decision and the gate's
    // record, the spec inside the state and no spec store.
    ConsumerRecord<String, TaskRecord> record = latest(kafka, recordsChangelog, records, r -> true);
    TaskCpuState state = record.value().getCpu();
    assertThat(List.of(state.getNode(), state.getTask(), state.getLastDecision().getNode()))
        .as("this version writes no ids").containsOnly("");
    TaskCpuState oldState = TaskCpuState.newBuilder(state).setNode("n1").setTask("x").setSpec(spec)
        .setLastDecision(CpuDecision.newBuilder(state.getLastDecision()).setNode("n1").setTask("x").build())
        .build();
    GateTaskRecord gateTask = record.value().getGate();
    assertThat(gateTask.getTask()).as("this version writes no task id").isEmpty();
    app.produceRaw(specChangelog, record.partition(), TASK, null);
    asAnOlderVersionLeftThem(app, record.partition(), oldState, GateTaskRecord.newBuilder(gateTask).setTask("x").build());

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
      TaskRecord rewritten = latest(kafka, recordsChangelog, records,
          r -> r != null && r.getCpu().getLastSampleTsMs() == startMs + 3_000).value();
      assertThat(rewritten.getCpu().getSpec()).as("written without its spec").isNull();
      assertThat(List.of(rewritten.getCpu().getNode(), rewritten.getCpu().getTask())).as("and without ids")
          .containsOnly("");
      assertThat(latest(kafka, specChangelog, app.topics.taskSpecs().valueSerde().deserializer(), s -> s != null)
          .value().getNcpus()).as("the spec in its own store").isEqualTo(4.0);
      GateTaskRecord gate = rewritten.getGate();
      assertThat(gate.getUsage().getSamples()).as("the gate's task carried on in the same record").isEqualTo(4);
      assertThat(gate.getHasSpec()).as("the gate's task found by the key's id, its spec kept").isTrue();
      assertThat(gate.getTask()).isEmpty();
      assertOldStoresEmptied(kafka, app);
    }
  }

  @Test
  void aRunUnderWayAtTheUpgradeTeachesItsWholeRun(KafkaEnv kafka, @TempDir Path dirs) throws Exception {
    StreamsAppFixture app = new StreamsAppFixture(kafka, "usage-upgrade");
    String recordsChangelog = app.changelog("task-state");
    String oldChangelog = app.changelog("memory-usage-stats");
    Deserializer<TaskRecord> records = app.topics.valueSerde(TaskRecord.class).deserializer();
    app.produce(app.topics.taskSpecs(),
        List.of(Map.entry(TASK, TaskSpec.newBuilder().setNode("n1").setTask("x").setNcpus(1).setOperation("etl").build())));

    try (StreamsRunner first = app.start(Files.createDirectory(dirs.resolve("first")))) {
      app.produce(app.topics.samples(), samples(startMs, 10, 20, 30));
      latest(kafka, recordsChangelog, records,
          r -> r.getGate() != null && r.getGate().getUsage() != null && r.getGate().getUsage().getSamples() == 3);
    }

    // The stores as the older version left them: the totals in memory-usage-stats, none in the task's gate record,
    // which is in peak-gate-tasks, apart from the task's CPU state.
    ConsumerRecord<String, TaskRecord> record = latest(kafka, recordsChangelog, records, r -> true);
    TaskUsageStatsRecord totals = record.value().getGate().getUsage();
    app.produceRaw(oldChangelog, record.partition(), TASK,
        app.topics.valueSerde(TaskUsageStatsRecord.class).serializer().serialize(oldChangelog, totals));
    asAnOlderVersionLeftThem(app, record.partition(), record.value().getCpu(),
        GateTaskRecord.newBuilder(record.value().getGate()).setUsage(null).build());

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
      assertOldStoresEmptied(kafka, app);
    }
  }

  /**
   * The task's record as a version before one record per task left it: its CPU state in {@code cpu-task-state}, its
   * gate record in {@code peak-gate-tasks}, nothing in {@code task-state}.
   */
  private static void asAnOlderVersionLeftThem(StreamsAppFixture app, int partition, TaskCpuState cpu,
      GateTaskRecord gate) {
    String cpuChangelog = app.changelog("cpu-task-state");
    String gateChangelog = app.changelog("peak-gate-tasks");
    app.produceRaw(cpuChangelog, partition, TASK,
        app.topics.valueSerde(TaskCpuState.class).serializer().serialize(cpuChangelog, cpu));
    app.produceRaw(gateChangelog, partition, TASK,
        app.topics.valueSerde(GateTaskRecord.class).serializer().serialize(gateChangelog, gate));
    app.produceRaw(app.changelog("task-state"), partition, TASK, null);
  }

  /** The task's records in the older stores were moved, and deleted there. */
  private static void assertOldStoresEmptied(KafkaEnv kafka, StreamsAppFixture app) {
    assertThat(latest(kafka, app.changelog("cpu-task-state"), app.topics.valueSerde(TaskCpuState.class).deserializer(),
        r -> r == null).value()).as("cpu-task-state's record deleted once moved").isNull();
    assertThat(latest(kafka, app.changelog("peak-gate-tasks"), app.topics.valueSerde(GateTaskRecord.class).deserializer(),
        r -> r == null).value()).as("peak-gate-tasks' record deleted once moved").isNull();
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
