package io.quotaflow.collector;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

/** The collector's producer settings: what a {@code --kafka-config} file may change and what it may not. */
class ProducerConfigsTest {

  @Test
  void theDefaultsBatchARoundUncompressed() {
    Map<String, Object> producer = ProducerConfigs.producer(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "k:9092"), "n1");

    assertThat(producer).containsEntry(ProducerConfig.LINGER_MS_CONFIG, 20)
        .containsEntry(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none")
        .containsEntry(ProducerConfig.CLIENT_ID_CONFIG, "quotaflow-collector-n1")
        .containsEntry(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "k:9092");
  }

  @Test
  void aFileChangesTheDefaultsButNotTheGuarantees() {
    Map<String, Object> producer = ProducerConfigs.producer(Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4",
        ProducerConfig.LINGER_MS_CONFIG, "50", ProducerConfig.ACKS_CONFIG, "1",
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false"), "n1");

    assertThat(producer).containsEntry(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4")
        .containsEntry(ProducerConfig.LINGER_MS_CONFIG, "50")
        .containsEntry(ProducerConfig.ACKS_CONFIG, "all")
        .containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
  }
}
