package io.quotaflow.streams.topology;

import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * A persistent, cached, changelogged key-value store read on every sample: Kafka Streams builds one
 * instance per stream task, and each gets a value serde of its own ({@link IdentityMemoSerde} around the
 * shared {@code valueSerde}), so the memo of decoded values lives and dies with the store it serves and
 * is used by one stream thread at a time. Configured here once: the {@code with…} setters are refused.
 */
final class MemoStoreBuilder<V> implements StoreBuilder<KeyValueStore<String, V>> {

  private final String name;
  private final Serde<V> valueSerde;
  /** What every instance is built as, for the settings Kafka Streams asks the builder about. */
  private final StoreBuilder<KeyValueStore<String, V>> template;

  MemoStoreBuilder(String name, Serde<V> valueSerde) {
    this.name = name;
    this.valueSerde = valueSerde;
    this.template = QuotaflowTopology.store(name, valueSerde);
  }

  @Override
  public KeyValueStore<String, V> build() {
    return QuotaflowTopology.store(name, new IdentityMemoSerde<>(valueSerde)).build();
  }

  @Override
  public Map<String, String> logConfig() {
    return template.logConfig();
  }

  @Override
  public boolean loggingEnabled() {
    return template.loggingEnabled();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public StoreBuilder<KeyValueStore<String, V>> withCachingEnabled() {
    throw settingRefused();
  }

  @Override
  public StoreBuilder<KeyValueStore<String, V>> withCachingDisabled() {
    throw settingRefused();
  }

  @Override
  public StoreBuilder<KeyValueStore<String, V>> withLoggingEnabled(Map<String, String> config) {
    throw settingRefused();
  }

  @Override
  public StoreBuilder<KeyValueStore<String, V>> withLoggingDisabled() {
    throw settingRefused();
  }

  private UnsupportedOperationException settingRefused() {
    return new UnsupportedOperationException("store " + name + " is cached and changelogged as QuotaflowTopology builds it");
  }
}
