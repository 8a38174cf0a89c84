package io.quotaflow.streams.topology;

import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Supplier;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The value serde of one store instance read on every sample: handed back the very byte array it returned
 * or decoded before, its deserializer returns the object that array stands for instead of decoding it again.
 * Kafka Streams' record cache keeps the array a store write serialized and returns that same array to every
 * read it answers, so a task's state written at one sample is read at the next without an Avro decode (6.5 %
 * of the stream threads' CPU in {@code bench cpu}); RocksDB returns a new array, which is decoded.
 *
 * <p>Sound because nothing writes into a value array once Kafka Streams holds it (the serializers return a
 * fresh one), and because the objects are values: read them, never change them (the CPU state is copied
 * before it changes, {@code CpuDecisionMaker}). The arrays are held weakly: an entry lives as long as the
 * cache keeps its array.
 *
 * <p>One per store instance ({@link MemoStoreBuilder}), so one stream thread uses it at a time; the memo
 * serves only the thread that last wrote through it (or first read, before any write). Another thread, an
 * interactive query's, decodes as if there were no memo, and a write from a new thread starts a new memo.
 */
final class IdentityMemoSerde<T> implements Serde<T> {

  /** Byte arrays compare by identity, so a WeakHashMap keyed by them is an identity map with weak keys. */
  private record Memo<T>(Thread owner, Map<byte[], T> known) {
    static <T> Memo<T> forThisThread() {
      return new Memo<>(Thread.currentThread(), new WeakHashMap<>());
    }
  }

  private final Serde<T> inner;
  private volatile Memo<T> memo;

  private final Serializer<T> serializer = new Serializer<>() {
    @Override
    public byte[] serialize(String topic, T data) {
      return remember(inner.serializer().serialize(topic, data), data);
    }

    @Override
    public byte[] serialize(String topic, Headers headers, T data) {
      return remember(inner.serializer().serialize(topic, headers, data), data);
    }
  };

  private final Deserializer<T> deserializer = new Deserializer<>() {
    @Override
    public T deserialize(String topic, byte[] data) {
      return decode(data, () -> inner.deserializer().deserialize(topic, data));
    }

    @Override
    public T deserialize(String topic, Headers headers, byte[] data) {
      return decode(data, () -> inner.deserializer().deserialize(topic, headers, data));
    }
  };

  IdentityMemoSerde(Serde<T> inner) {
    this.inner = inner;
  }

  private byte[] remember(byte[] bytes, T value) {
    if (bytes != null && value != null) {
      Memo<T> m = memo;
      if (m == null || m.owner() != Thread.currentThread()) {
        m = Memo.forThisThread();
        memo = m;
      }
      m.known().put(bytes, value);
    }
    return bytes;
  }

  private T decode(byte[] data, Supplier<T> decoder) {
    if (data == null) {
      return null;
    }
    Memo<T> m = memo;
    if (m == null) {
      m = Memo.forThisThread();
      memo = m;
    } else if (m.owner() != Thread.currentThread()) {
      return decoder.get();
    }
    T value = m.known().get(data);
    if (value == null) {
      value = decoder.get();
      if (value != null) {
        m.known().put(data, value);
      }
    }
    return value;
  }

  /** Arrays remembered for the thread the memo serves (some may be unreachable and not yet cleared). */
  int size() {
    Memo<T> m = memo;
    return m == null ? 0 : m.known().size();
  }

  @Override
  public Serializer<T> serializer() {
    return serializer;
  }

  @Override
  public Deserializer<T> deserializer() {
    return deserializer;
  }
}
