package io.quotaflow.streams.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.FinishedTaskUsageRecord;
import io.quotaflow.schemas.avro.internal.GateTaskRecord;
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
 * The usage totals moved from {@code memory-usage-stats} into the gate's task records. On a real broker: an app
 * restored from changelogs laid out as the older version left them (the task's record without totals, the totals in
 * the old store's changelog) carries the run over, so its GONE teaches the whole run, and deletes the old entry.
 */
@WithKafka
class UsageTotalsUpgradeIntegrationTest {

  private static final long MB = 1L << 20;
  private static final String TASK = "n1/x";

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
  void aRunUnderWayAtTheUpgradeTeachesItsWholeRun(KafkaEnv kafka, @TempDir Path dirs) throws Exception {
    long startMs = (System.currentTimeMillis() - 60_000) / 1000 * 1000;
    StreamsAppFixture app = new StreamsAppFixture(kafka, "usage-upgrade");
    String tasksChangelog = app.applicationId + "-peak-gate-tasks-changelog";
    String oldChangelog = app.applicationId + "-memory-usage-stats-changelog";
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
