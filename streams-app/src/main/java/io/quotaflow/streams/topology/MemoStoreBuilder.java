package io.quotaflow.streams.topology;

import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * A persistent, cached, changelogged key-value store read on every sample: Kafka Streams builds one
 * instance per stream task, and each gets a value serde of its own ({@link IdentityMemoSerde} around the
 * shared {@code valueSerde}), so the memo of decoded values lives and dies with the store it serves and
 * is used by one stream thread at a time. Kafka Streams may still turn caching off (it does when
 * {@code statestore.cache.max.bytes} is 0) or logging; every instance is then built so.
 */
final class MemoStoreBuilder<V> implements StoreBuilder<KeyValueStore<String, V>> {

  private final String name;
  private final Serde<V> valueSerde;
  private final int memoSlots;
  private boolean caching = true;
  private boolean logging = true;
  private Map<String, String> logConfig = Map.of();

  /**
   * {@code memoSlots}: objects each instance's memo holds at most, a power of two of at least 2
   * ({@link IdentityMemoSerde}).
   */
  MemoStoreBuilder(String name, Serde<V> valueSerde, int memoSlots) {
    this.name = name;
    this.valueSerde = valueSerde;
    this.memoSlots = IdentityMemoSerde.requireSlots(memoSlots); // refused here, not at the first task
  }

  @Override
  public KeyValueStore<String, V> build() {
    return configured(new IdentityMemoSerde<>(valueSerde, memoSlots)).build();
  }

  private StoreBuilder<KeyValueStore<String, V>> configured(Serde<V> values) {
    StoreBuilder<KeyValueStore<String, V>> builder = QuotaflowTopology.store(name, values);
    if (!caching) {
      builder.withCachingDisabled();
    }
    if (!logging) {
      builder.withLoggingDisabled();
    } else if (!logConfig.isEmpty()) {
      builder.withLoggingEnabled(logConfig);
    }
    return builder;
  }

  @Override
  public Map<String, String> logConfig() {
    return logConfig;
  }

  @Override
  public boolean loggingEnabled() {
    return logging;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public StoreBuilder<KeyValueStore<String, V>> withCachingEnabled() {
    caching = true;
    return this;
  }

  @Override
  public StoreBuilder<KeyValueStore<String, V>> withCachingDisabled() {
    caching = false;
    return this;
  }

  @Override
  public StoreBuilder<KeyValueStore<String, V>> withLoggingEnabled(Map<String, String> config) {
    logging = true;
    logConfig = Map.copyOf(config);
    return this;
  }

  @Override
  public StoreBuilder<KeyValueStore<String, V>> withLoggingDisabled() {
    logging = false;
    logConfig = Map.of();
    return this;
  }
}
