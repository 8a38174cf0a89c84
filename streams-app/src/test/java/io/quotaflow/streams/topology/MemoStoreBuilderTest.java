package io.quotaflow.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

class MemoStoreBuilderTest {

  private final MemoStoreBuilder<String> builder = new MemoStoreBuilder<>("cpu-task-state", Serdes.String());

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

  @Test
  void refusesToBeReconfigured() {
    assertThatThrownBy(builder::withCachingDisabled).isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("cpu-task-state");
    assertThatThrownBy(builder::withLoggingDisabled).isInstanceOf(UnsupportedOperationException.class);
  }
}
