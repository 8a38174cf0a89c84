package io.quotaflow.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/** What the app's producers get from {@link StreamsConfigFactory}: its defaults, and the operator's settings over them. */
class StreamsConfigFactoryTest {

  private static Map<String, Object> producerSettings(Map<String, ?> overrides) {
    return new StreamsConfig(StreamsConfigFactory.create("localhost:9092", "dlq", overrides)).getProducerConfigs("client");
  }

  @Test
  void theProducersLingerBrieflyAndDoNotCompressByDefault() {
    Map<String, Object> producer = producerSettings(Map.of());
    assertThat(producer).containsEntry(ProducerConfig.LINGER_MS_CONFIG, 5)
        .doesNotContainKey(ProducerConfig.COMPRESSION_TYPE_CONFIG);
  }

  @Test
  void anOperatorsPlainProducerSettingWinsOverTheDefault() {
    Map<String, Object> producer = producerSettings(Map.of("compression.type", "zstd", "linger.ms", "20"));
    assertThat(producer).containsEntry(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd")
        .containsEntry(ProducerConfig.LINGER_MS_CONFIG, "20");
  }

  @Test
  void anOperatorsPrefixedProducerSettingWinsOverTheDefault() {
    Map<String, Object> producer = producerSettings(Map.of("producer.compression.type", "lz4", "producer.linger.ms", "0"));
    assertThat(producer).containsEntry(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4")
        .containsEntry(ProducerConfig.LINGER_MS_CONFIG, "0");
  }
}
