package io.quotaflow.streams.topology;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

/**
 * A key-value store whose writes wait in memory until the commit: a key written many times between two commits
 * is encoded and written into the store below once, at the commit, rather than at every write.
 *
 * <p>A task sampled several times a commit interval (a backlog, a replay, a catch-up after an outage: {@code bench
 * cpu}'s throughput run) paid an Avro encode and a record-cache put on every sample; now it pays them once per
 * commit. A task sampled once a commit interval (a live cluster at 1 Hz with 100 ms commits) pays an encode per
 * sample as before, plus a map put, and its store write goes into RocksDB in one write batch with the other keys of
 * the commit ({@link #flushCache}; {@link QuotaflowTopology#writtenPerSample} says why the stores below are not
 * cached).
 *
 * <p>Kafka Streams flushes every store's cache before it commits a task's transaction ({@code
 * ProcessorStateManager.flushCache}, from {@code StreamTask.prepareCommit}, also when a task is suspended or closed
 * cleanly): this store writes what waits into the store below first, so the changelog records of those writes are
 * in the same transaction as the input offsets they follow from. A task closed dirty drops what waited, as the
 * record cache drops its dirty entries: the state is then restored from the changelog, as of the last commit.
 *
 * <p>Reads see what waits: {@link #get} first, and the range reads merge it, in key order, over what the store
 * below holds. Reads may come from interactive queries on other threads, so the waiting writes are kept in a
 * concurrent map and a range read merges a copy of them. Values are kept by reference until the commit: a value
 * put must not be changed afterwards (the processors write a new record, or the inputs of one, every time). Keys
 * must be ordered as their UTF-8 bytes are, which is how the String serde's keys are ordered in the stores below.
 *
 * <p>A processor that keeps its values in another form may leave the record to be built later ({@link
 * #putDeferred}): then nothing is built per write, only once at the commit and at each read of what waits. At
 * 100,000 tasks in {@code bench cpu} nearly every task has a write waiting at any time, and the gate's task records
 * built per write, with their nested records, were ~110 B per task of live heap under load (a class histogram),
 * copied by every young collection until the commit; at 5,000 tasks a record was built for every sample and all
 * but the last of each commit thrown away (docs/benchmarks.md, <i>What the gate's task record costs, and records
 * built at the commit</i>).
 *
 * <p>It extends Kafka Streams' internal {@code WrappedStateStore} because the commit's flush reaches only stores
 * that are a {@code CachedStateStore} (checked in kafka-streams 4.3.1); an upgrade of Kafka Streams must keep
 * {@code RestartDeterminismIntegrationTest} green, which fails when this flush is not reached.
 */
final class WriteBackStore<V> extends WrappedStateStore<KeyValueStore<String, V>, String, V>
    implements KeyValueStore<String, V> {

  /** What waits for a key deleted since the last commit (a concurrent map holds no null). */
  private static final Object DELETED = new Object();
  private static final Comparator<String> BYTE_ORDER = WriteBackStore::compareUtf8;

  /** The writes since the last commit, by key: a value, or {@link #DELETED}. */
  private final Map<String, Object> waiting = new ConcurrentHashMap<>();

  WriteBackStore(KeyValueStore<String, V> wrapped) {
    super(wrapped);
  }

  /**
   * A value that waits for the commit as the inputs of its record, built from them when it is read and at the commit:
   * it must build equal records every time, from inputs that are not changed after the write, on any thread (the
   * live-state API reads what waits).
   */
  @FunctionalInterface
  interface Deferred<V> {
    V value();
  }

  /**
   * The write-back store under {@code store}, a store as {@code ProcessorContext.getStateStore} hands it out (inside
   * Kafka Streams' read-write decorator, which has no {@link #putDeferred}). The decorator is a {@code
   * WrappedStateStore} whose {@code put} only hands the write on (kafka-streams 4.3.1, {@code javap -c}); were it
   * not, the processors' init would throw here, in every topology test.
   *
   * @throws IllegalStateException when there is none: the store was not built by {@link #writingBack}
   */
  @SuppressWarnings("unchecked")
  static <V> WriteBackStore<V> beneath(KeyValueStore<String, V> store) {
    StateStore current = store;
    while (current instanceof WrappedStateStore<?, ?, ?> wrapper) {
      if (current instanceof WriteBackStore<?> found) {
        return (WriteBackStore<V>) found;
      }
      current = wrapper.wrapped();
    }
    throw new IllegalStateException("store " + store.name() + " does not write back: build it with writingBack");
  }

  /** {@code inner}'s store, its writes held until the commit. */
  static <V> StoreBuilder<KeyValueStore<String, V>> writingBack(StoreBuilder<KeyValueStore<String, V>> inner) {
    return new Builder<>(inner);
  }

  @Override
  public void put(String key, V value) {
    Objects.requireNonNull(key, "key cannot be null");
    waiting.put(key, value == null ? DELETED : value);
  }

  /** Like {@link #put}, but the record is built only when read and once at the commit ({@link Deferred}). */
  void putDeferred(String key, Deferred<V> value) {
    Objects.requireNonNull(key, "key cannot be null");
    waiting.put(key, Objects.requireNonNull(value, "value"));
  }

  /**
   * How a value is made of parts that writers write apart ({@link #putPart}): the CPU processor's and the peak
   * gate's of a task's record ({@link TaskRecords}).
   */
  interface Layout<V> {
    /** How many parts a value has. */
    int parts();

    /** Part {@code index} of {@code value}; null when it has none. */
    Object part(V value, int index);

    /** The value of {@code parts}, by index; null, a deleted key, when every part is null. */
    V of(Object[] parts);
  }

  /**
   * Writes part {@code index} of the value under {@code key}, built at a read and once at the commit as a {@link
   * Deferred} is (built as null: the part is gone), whatever the other parts hold. A later write of the same part
   * replaces this one; a write of another part goes with it, so writers of several parts of one key write one record
   * per commit. A part not written since the last commit is taken from what waited before or, when nothing did, from
   * the store below, read when the value is built; when every part was written, nothing is read.
   */
  void putPart(String key, Layout<V> layout, int index, Deferred<?> part) {
    Objects.requireNonNull(key, "key cannot be null");
    Objects.requireNonNull(part, "part");
    Object held = waiting.get(key);
    if (held instanceof PartWrites<?> parts && parts.layout == layout) {
      parts.set(index, part);
      return;
    }
    PartWrites<V> parts = new PartWrites<>(this, layout, key, held);
    parts.set(index, part);
    waiting.put(key, parts);
  }

  @Override
  public V putIfAbsent(String key, V value) {
    V current = get(key);
    if (current == null) {
      put(key, value);
    }
    return current;
  }

  @Override
  public void putAll(List<KeyValue<String, V>> entries) {
    for (KeyValue<String, V> entry : entries) {
      put(entry.key, entry.value);
    }
  }

  @Override
  public V delete(String key) {
    V current = get(key);
    put(key, null);
    return current;
  }

  @Override
  public V get(String key) {
    Object held = waiting.get(key);
    if (held == null) {
      return wrapped().get(key);
    }
    return held == DELETED ? null : value(held);
  }

  @Override
  public KeyValueIterator<String, V> range(String from, String to) {
    return merged(wrapped().range(from, to), inRange(from, to), false);
  }

  @Override
  public KeyValueIterator<String, V> reverseRange(String from, String to) {
    return merged(wrapped().reverseRange(from, to), inRange(from, to), true);
  }

  @Override
  public KeyValueIterator<String, V> all() {
    return merged(wrapped().all(), key -> true, false);
  }

  @Override
  public KeyValueIterator<String, V> reverseAll() {
    return merged(wrapped().reverseAll(), key -> true, true);
  }

  @Override
  public <PS extends Serializer<P>, P> KeyValueIterator<String, V> prefixScan(P prefix, PS prefixKeySerializer) {
    byte[] start = prefixKeySerializer.serialize(null, prefix);
    return merged(wrapped().prefixScan(prefix, prefixKeySerializer), key -> startsWith(key, start), false);
  }

  /** The store below's count, as approximate as it says: writes waiting may add keys or delete some. */
  @Override
  public long approximateNumEntries() {
    return wrapped().approximateNumEntries();
  }

  /**
   * Before Kafka Streams flushes the record cache for a commit: what waits goes into the store below first, in one
   * {@code putAll}. RocksDB takes that as one write batch, where a {@code put} per key paid RocksDB's per-write
   * work and the metered layer's timers each time; the changelog gets the same records either way.
   */
  @Override
  public void flushCache() {
    if (!waiting.isEmpty()) {
      List<KeyValue<String, V>> writes = new ArrayList<>(waiting.size());
      for (Map.Entry<String, Object> write : waiting.entrySet()) {
        writes.add(KeyValue.pair(write.getKey(), write.getValue() == DELETED ? null : value(write.getValue())));
      }
      wrapped().putAll(writes);
      waiting.clear(); // the stream thread is the only writer, and it is here
    }
    super.flushCache();
  }

  /** Kafka Streams clears the caches of a task it recycles: what waits was never committed, as their dirty entries. */
  @Override
  public void clearCache() {
    waiting.clear();
    super.clearCache();
  }

  /**
   * A clean close flushed what waited first; a dirty close drops it, and a task revived after one opens this same
   * store again and restores from the changelog: nothing from before may be written then.
   */
  @Override
  public void close() {
    waiting.clear();
    super.close();
  }

  /**
   * The parts written of a key's value since the last commit, over what stood before them: {@code before} is what
   * waited when the first came ({@link #DELETED}, a value or a deferred one), or null when nothing did, and the store
   * below is read then.
   */
  private static final class PartWrites<V> implements Deferred<V> {
    private static final VarHandle PARTS = MethodHandles.arrayElementVarHandle(Deferred[].class);

    private final WriteBackStore<V> store;
    private final Layout<V> layout;
    private final String key;
    private final Object before;
    /** By part, null where none was written; set by the stream thread, read by any (the live-state API). */
    private final Deferred<?>[] written;

    PartWrites(WriteBackStore<V> store, Layout<V> layout, String key, Object before) {
      this.store = store;
      this.layout = layout;
      this.key = key;
      this.before = before;
      this.written = new Deferred<?>[layout.parts()];
    }

    void set(int index, Deferred<?> part) {
      PARTS.setRelease(written, index, part);
    }

    @Override
    public V value() {
      Object[] parts = new Object[written.length];
      boolean readBefore = false;
      V stoodBefore = null;
      for (int i = 0; i < parts.length; i++) {
        Deferred<?> part = (Deferred<?>) PARTS.getAcquire(written, i);
        if (part != null) {
          parts[i] = part.value();
          continue;
        }
        if (!readBefore) {
          stoodBefore = before == null ? store.wrapped().get(key) : before == DELETED ? null : store.value(before);
          readBefore = true;
        }
        parts[i] = stoodBefore == null ? null : layout.part(stoodBefore, i);
      }
      return layout.of(parts);
    }
  }

  /** How many keys have writes waiting for the commit. */
  int waitingWrites() {
    return waiting.size();
  }

  @SuppressWarnings("unchecked")
  private V value(Object held) {
    return held instanceof Deferred<?> deferred ? (V) deferred.value() : (V) held;
  }

  private KeyValueIterator<String, V> merged(KeyValueIterator<String, V> stored, Predicate<String> wanted,
      boolean reverse) {
    List<KeyValue<String, Object>> writes = new ArrayList<>();
    for (Map.Entry<String, Object> write : waiting.entrySet()) {
      if (wanted.test(write.getKey())) {
        writes.add(KeyValue.pair(write.getKey(), write.getValue()));
      }
    }
    Comparator<String> order = reverse ? BYTE_ORDER.reversed() : BYTE_ORDER;
    writes.sort((a, b) -> order.compare(a.key, b.key));
    return new Merged(stored, writes, order);
  }

  private static Predicate<String> inRange(String from, String to) {
    return key -> (from == null || compareUtf8(key, from) >= 0) && (to == null || compareUtf8(key, to) <= 0);
  }

  private static boolean startsWith(String key, byte[] prefix) {
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    return bytes.length >= prefix.length && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
  }

  /** Orders strings as their UTF-8 bytes are ordered: by code point (UTF-16 order differs above the surrogates). */
  static int compareUtf8(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  /** The store's entries with the waiting writes over them, both in {@code order}; a deleted key is skipped. */
  private final class Merged implements KeyValueIterator<String, V> {
    private final KeyValueIterator<String, V> stored;
    private final List<KeyValue<String, Object>> writes;
    private final Comparator<String> order;
    private int nextWrite;
    private KeyValue<String, V> next;

    Merged(KeyValueIterator<String, V> stored, List<KeyValue<String, Object>> writes, Comparator<String> order) {
      this.stored = stored;
      this.writes = writes;
      this.order = order;
    }

    @Override
    public boolean hasNext() {
      while (next == null) {
        String storedKey = stored.hasNext() ? stored.peekNextKey() : null;
        KeyValue<String, Object> write = nextWrite < writes.size() ? writes.get(nextWrite) : null;
        if (storedKey == null && write == null) {
          return false;
        }
        int cmp = storedKey == null ? 1 : write == null ? -1 : order.compare(storedKey, write.key);
        if (cmp < 0) {
          next = stored.next();
          continue;
        }
        if (cmp == 0) {
          stored.next(); // the write replaces what is stored
        }
        nextWrite++;
        V value = write.value == DELETED ? null : value(write.value);
        if (value != null) { // parts written may leave no value (putPart)
          next = KeyValue.pair(write.key, value);
        }
      }
      return true;
    }

    @Override
    public KeyValue<String, V> next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      KeyValue<String, V> current = next;
      next = null;
      return current;
    }

    @Override
    public String peekNextKey() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return next.key;
    }

    @Override
    public void close() {
      stored.close();
    }
  }

  /** Builds the inner builder's store and wraps it; everything else is the inner builder's. */
  private static final class Builder<V> implements StoreBuilder<KeyValueStore<String, V>> {
    private final StoreBuilder<KeyValueStore<String, V>> inner;

    Builder(StoreBuilder<KeyValueStore<String, V>> inner) {
      this.inner = inner;
    }

    @Override
    public StoreBuilder<KeyValueStore<String, V>> withCachingEnabled() {
      inner.withCachingEnabled();
      return this;
    }

    @Override
    public StoreBuilder<KeyValueStore<String, V>> withCachingDisabled() {
      inner.withCachingDisabled();
      return this;
    }

    @Override
    public StoreBuilder<KeyValueStore<String, V>> withLoggingEnabled(Map<String, String> config) {
      inner.withLoggingEnabled(config);
      return this;
    }

    @Override
    public StoreBuilder<KeyValueStore<String, V>> withLoggingDisabled() {
      inner.withLoggingDisabled();
      return this;
    }

    @Override
    public KeyValueStore<String, V> build() {
      return new WriteBackStore<>(inner.build());
    }

    @Override
    public Map<String, String> logConfig() {
      return inner.logConfig();
    }

    @Override
    public boolean loggingEnabled() {
      return inner.loggingEnabled();
    }

    @Override
    public String name() {
      return inner.name();
    }
  }
}
