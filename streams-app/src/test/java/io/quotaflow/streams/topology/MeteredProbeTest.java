package io.quotaflow.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.process.ops.OpsServer;
import org.junit.jupiter.api.Test;

class MeteredProbeTest {

  @Test
  void theNewestSampleIsATimestampInSecondsAndNoValueBeforeTheFirst() {
    PrometheusMeterRegistry registry = OpsServer.newRegistry("streams");
    MeteredProbe probe = new MeteredProbe(registry);
    assertThat(registry.scrape())
        .contains("quotaflow_streams_newest_sample_timestamp_seconds{component=\"streams\"} NaN");

    probe.sampleHandled(1_700_000_001_500L);
    probe.sampleHandled(1_700_000_000_000L); // an older one does not move it back
    assertThat(registry.get("quotaflow.streams.newest.sample.timestamp").gauge().value()).isEqualTo(1_700_000_001.5);
    assertThat(registry.scrape()).contains("quotaflow_streams_samples_total{component=\"streams\"} 2.0");
  }
}
