package io.quotaflow.streams.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.process.ops.Health;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.streams.topology.StreamsRunner;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.MetricsTable;
import io.quotaflow.testharness.Scrape;
import io.quotaflow.testharness.WithKafka;
import java.nio.file.Path;
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
    StreamsAppFixture app = new StreamsAppFixture(kafka, "streams-metrics");
    PrometheusMeterRegistry meters = OpsServer.newRegistry("streams");
    try (OpsServer ops = OpsServer.start("127.0.0.1", 0, meters, () -> new Health(true, true, -1, "TEST"));
        StreamsRunner runner = app.start(stateDir, meters)) {
      Scrape scrape = Scrape.of(ops.port());
      assertThat(scrape.families("quotaflow_")).as("quotaflow_* families and their types")
            .containsExactlyInAnyOrderEntriesOf(MetricsTable.types("streams"));
      assertThat(scrape.families()).containsAllEntriesOf(MetricsTable.types("every process"))
          .as("Kafka Streams' own metrics").containsKey("kafka_stream_thread_process_total");
    }
  }
}
