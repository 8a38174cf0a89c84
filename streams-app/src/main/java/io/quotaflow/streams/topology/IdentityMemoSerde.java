package io.quotaflow.streams.topology;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The value serde of one store instance read on every sample: handed back the very byte array it returned
 * or decoded a moment ago, its deserializer returns the object that array stands for instead of decoding it
 * again. Kafka Streams' record cache keeps the array a store write serialized and returns that same array to
 * every read it answers, so a task's state written at one sample is read at the next without an Avro decode
 * (6.5 % of the stream threads' CPU in {@code bench cpu}); RocksDB returns a new array, which is decoded.
 *
 * <p>Sound because nothing writes into a value array once Kafka Streams holds it (the serializers return a
 * fresh one), and because the objects are values: read them, never change them (the CPU state is copied
 * before it changes, {@code CpuDecisionMaker}).
 *
 * <p>Bounded: a fixed table of {@code slots} (array, object) pairs in sets of two, each array in the set its
 * identity hash picks, a newer one replacing the older of the two. So it holds at most {@code slots} objects
 * whatever the number of tasks: where tasks come back within a few hundred writes (the record cache's working
 * set) nearly every read is a hit, and where they do not it costs a slot write per miss and no heap that grows.
 * (A map with weak keys was tried first: its values outlived their arrays until the map was next touched and
 * until an old-generation collection, and the heap per task at 100,000 tasks went from 1.4 to 5 KB.)
 *
 * <p>One per store instance ({@link MemoStoreBuilder}), so one stream thread uses it at a time; the table
 * serves only the thread that last wrote through it (or first read, before any write). Another thread, an
 * interactive query's, decodes as if there were no memo, and a write from a new thread starts a new table.
 */
final class IdentityMemoSerde<T> implements Serde<T> {

  /**
   * Sets of two ways: a new array goes into the newer way of the set its identity hash picks and the array
   * there moves to the older way, whose own goes. A task's array is so lost only when two others land in its
   * set before the task comes back, not one: with a partition's ~420 tasks, 1,024 slots direct-mapped lost
   * about a third of them, and the decodes of those misses were 5.3 % of the stream threads' CPU; with 2,048
   * slots in two ways, 2.9 % (docs/benchmarks.md).
   */
  private static final class Memo {
    final Thread owner = Thread.currentThread();
    /** Way 0 of set s at 2s (the newer), way 1 at 2s + 1. */
    final byte[][] arrays;
    final Object[] values;
    final int setMask;

    Memo(int slots) {
      arrays = new byte[slots][];
      values = new Object[slots];
      setMask = slots / 2 - 1;
    }

    int set(byte[] array) {
      return (System.identityHashCode(array) & setMask) << 1;
    }

    Object get(byte[] array) {
      int i = set(array);
      if (arrays[i] == array) {
        return values[i];
      }
      return arrays[i + 1] == array ? values[i + 1] : null;
    }

    void put(byte[] array, Object value) {
      int i = set(array);
      if (arrays[i + 1] == array) {
        values[i + 1] = value;
        return;
      }
      if (arrays[i] != array) {
        arrays[i + 1] = arrays[i];
        values[i + 1] = values[i];
        arrays[i] = array;
      }
      values[i] = value;
    }
  }

  private final Serde<T> inner;
  private final int slots;
  private volatile Memo memo;

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
      if (data == null) {
        return null;
      }
      Memo m = memoToRead();
      T known = known(m, data);
      return known != null ? known : keep(m, data, inner.deserializer().deserialize(topic, data));
    }

    @Override
    public T deserialize(String topic, Headers headers, byte[] data) {
      if (data == null) {
        return null;
      }
      Memo m = memoToRead();
      T known = known(m, data);
      return known != null ? known : keep(m, data, inner.deserializer().deserialize(topic, headers, data));
    }
  };

  /** {@code slots}: a power of two of at least 2, the most objects held. */
  IdentityMemoSerde(Serde<T> inner, int slots) {
    this.inner = inner;
    this.slots = requireSlots(slots);
  }

  static int requireSlots(int slots) {
    if (slots < 2 || Integer.bitCount(slots) != 1) {
      throw new IllegalArgumentException("memo slots must be a power of two of at least 2, not " + slots);
    }
    return slots;
  }

  private byte[] remember(byte[] bytes, T value) {
    if (bytes != null && value != null) {
      Memo m = memo;
      if (m == null || m.owner != Thread.currentThread()) {
        m = new Memo(slots);
        memo = m;
      }
      m.put(bytes, value);
    }
    return bytes;
  }

  /** The calling thread's memo (made on a first read, before any write), or null when another thread owns it. */
  private Memo memoToRead() {
    Memo m = memo;
    if (m == null) {
      m = new Memo(slots);
      memo = m;
    }
    return m.owner == Thread.currentThread() ? m : null;
  }

  @SuppressWarnings("unchecked")
  private T known(Memo m, byte[] data) {
    return m == null ? null : (T) m.get(data);
  }

  private T keep(Memo m, byte[] data, T value) {
    if (m != null && value != null) {
      m.put(data, value);
    }
    return value;
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
