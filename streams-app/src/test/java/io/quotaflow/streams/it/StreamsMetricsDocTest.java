package io.quotaflow.streams.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.process.ops.Health;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.streams.topology.StreamsRunner;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.MetricsTable;
import io.quotaflow.testharness.Scrape;
import io.quotaflow.testharness.WithKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/operations.md's streams table is what a running streams app serves: the runner and the ops
 * server on one registry, as {@code quotaflow streams} wires them.
 */
@WithKafka
class StreamsMetricsDocTest {

  @TempDir
  Path stateDir;

  @Test
  void theMetricsTableNamesEveryQuotaflowMetricTheStreamsAppServesAndNoOther(KafkaEnv kafka) throws Exception {
    // One partition: the pool processor computes a period once every partition reported it.
    StreamsAppFixture app = new StreamsAppFixture(kafka, "streams-metrics", kafka.registryClient(), 1, true);
    PrometheusMeterRegistry meters = OpsServer.newRegistry("streams");
    try (OpsServer ops = OpsServer.start("127.0.0.1", 0, meters, () -> new Health(true, true, -1, "TEST"));
        StreamsRunner runner = app.start(stateDir, meters)) {
      // The per-pool families have a series only once a pool's state was computed: one pool with a task makes them appear.
      onePoolWithATask(app);
      KafkaWait.until(Duration.ofSeconds(60), "a pool's state on /metrics",
          () -> scrape(ops).families("quotaflow_").containsKey("quotaflow_streams_pool_usage_cpu"));
      Scrape scrape = Scrape.of(ops.port());
      assertThat(scrape.families("quotaflow_")).as("quotaflow_* families and their types")
            .containsExactlyInAnyOrderEntriesOf(MetricsTable.types("streams"));
      assertThat(scrape.families()).containsAllEntriesOf(MetricsTable.types("every process"))
          .as("Kafka Streams' own metrics").containsKey("kafka_stream_thread_process_total");
    }
  }

  /** A pool, one task in it and ten seconds of its samples, ending a minute ago. */
  private static void onePoolWithATask(StreamsAppFixture app) {
    long startMs = (System.currentTimeMillis() - 70_000) / 1000 * 1000;
    app.produceAt(app.topics.poolConfigs(), List.of(new ProducerRecord<>(app.topics.poolConfigs().name(), null,
        startMs - 2000, "batch", PoolConfig.newBuilder().setPool("batch").build())));
    app.produceAt(app.topics.taskSpecs(), List.of(new ProducerRecord<>(app.topics.taskSpecs().name(), null,
        startMs - 1000, "node-0/task-0", TaskSpec.newBuilder().setNode("node-0").setTask("task-0").setNcpus(1)
            .setPool("batch").build())));
    List<ProducerRecord<String, CgroupSample>> samples = new ArrayList<>();
    for (int s = 0; s < 10; s++) {
      long tsMs = startMs + s * 1000L;
      samples.add(new ProducerRecord<>(app.topics.samples().name(), null, tsMs, "node-0/task-0",
          CgroupSample.newBuilder().setNode("node-0").setTask("task-0").setTsMs(tsMs).setCpuUsageUsec(s * 500_000L)
              .setMemoryBytes(1L << 26).setState(SampleState.RUNNING).setSeq(s).build()));
    }
    app.produceAt(app.topics.samples(), samples);
  }

  private static Scrape scrape(OpsServer ops) {
    try {
      return Scrape.of(ops.port());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
