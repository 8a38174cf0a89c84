package io.quotaflow.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.WrappedStateStore;
import org.junit.jupiter.api.Test;

class MemoStoreBuilderTest {

  private final MemoStoreBuilder<String> builder = new MemoStoreBuilder<>("cpu-task-state", Serdes.String(), 64);

  @Test
  void buildsTheStoreAsEveryOtherStoreOfTheAppIsBuilt() {
    var plain = QuotaflowTopology.store("cpu-task-state", Serdes.String());
    assertThat(builder.name()).isEqualTo("cpu-task-state");
    assertThat(builder.loggingEnabled()).isEqualTo(plain.loggingEnabled()).isTrue();
    assertThat(builder.logConfig()).isEqualTo(plain.logConfig());
    KeyValueStore<String, String> store = builder.build();
    assertThat(store.name()).isEqualTo("cpu-task-state");
    assertThat(store.persistent()).isTrue();
    assertThat(builder.build()).as("one instance per stream task").isNotSameAs(store);
  }

  /** Kafka Streams turns caching off itself when statestore.cache.max.bytes is 0. */
  @Test
  void takesTheSettingsKafkaStreamsGivesItForEveryInstance() {
    assertThat(layers(builder.build())).contains("CachingKeyValueStore", "ChangeLoggingKeyValueBytesStore");
    builder.withCachingDisabled().withLoggingEnabled(Map.of("retention.ms", "1000"));
    assertThat(builder.logConfig()).containsEntry("retention.ms", "1000");
    assertThat(layers(builder.build())).doesNotContain("CachingKeyValueStore").contains("ChangeLoggingKeyValueBytesStore");
    builder.withLoggingDisabled();
    assertThat(builder.loggingEnabled()).isFalse();
    assertThat(layers(builder.build())).doesNotContain("CachingKeyValueStore", "ChangeLoggingKeyValueBytesStore");
  }

  private static List<String> layers(StateStore store) {
    List<String> names = new ArrayList<>();
    StateStore layer = store;
    while (true) {
      names.add(layer.getClass().getSimpleName());
      if (!(layer instanceof WrappedStateStore<?, ?, ?> wrapper)) {
        return names;
      }
      layer = wrapper.wrapped();
    }
  }
}
