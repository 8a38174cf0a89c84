package io.quotaflow.streams.topology;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A serde for store values that are read on every sample and written rarely (the cluster config,
 * node statuses, a partition's last pool report): its deserializer hands back the object it decoded before from the same bytes
 * instead of decoding them again. Keyed by content, so a write, a restore or a rollback can never
 * leave a stale object behind. The objects are shared between readers: read them, never change them.
 */
final class MemoizingSerde<T> implements Serde<T> {

  /**
   * Far above the values a process holds at once (one config, a few hundred node statuses, one report per
   * partition and period); a full memo starts over.
   */
  static final int MAX_ENTRIES = 4_096;

  private final Serde<T> inner;
  private final ConcurrentHashMap<ByteBuffer, T> decoded = new ConcurrentHashMap<>();
  private final Deserializer<T> deserializer = new Deserializer<>() {
    @Override
    public T deserialize(String topic, byte[] data) {
      return decode(topic, data);
    }

    @Override
    public T deserialize(String topic, Headers headers, byte[] data) {
      return decode(topic, data);
    }
  };

  MemoizingSerde(Serde<T> inner) {
    this.inner = inner;
  }

  private T decode(String topic, byte[] data) {
    if (data == null) {
      return null;
    }
    T known = decoded.get(ByteBuffer.wrap(data));
    if (known != null) {
      return known;
    }
    T value = inner.deserializer().deserialize(topic, data);
    if (decoded.size() >= MAX_ENTRIES) {
      decoded.clear();
    }
    decoded.put(ByteBuffer.wrap(Arrays.copyOf(data, data.length)), value); // the caller may reuse its array
    return value;
  }

  int size() {
    return decoded.size();
  }

  @Override
  public Serializer<T> serializer() {
    return inner.serializer();
  }

  @Override
  public Deserializer<T> deserializer() {
    return deserializer;
  }
}
