package io.quotaflow.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link WriteBackStore} over a real in-memory store: writes wait until the cache is flushed, and every read sees
 * them. That Kafka Streams flushes it before each commit is checked where it runs ({@code CpuTopologyTest},
 * {@code RestartDeterminismIntegrationTest}).
 */
class WriteBackStoreTest {

  private KeyValueStore<String, String> below;
  private WriteBackStore<String> store;
  /** Point reads the write-back made of the store below (the test's own reads of {@link #below} not counted). */
  private AtomicInteger readsBelow;

  @BeforeEach
  void open() {
    OpenedStore built = build();
    below = built.below();
    store = built.store();
    readsBelow = built.readsBelow();
  }

  @AfterEach
  void close() {
    if (store.isOpen()) {
      store.close();
    }
  }

  @Test
  void aWriteWaitsUntilTheCacheIsFlushedAndIsReadBackMeanwhile() {
    store.put("n1/a", "1");
    store.put("n1/a", "2");

    assertThat(store.get("n1/a")).isEqualTo("2");
    assertThat(below.get("n1/a")).isNull();
    assertThat(store.waitingWrites()).isEqualTo(1);

    store.flushCache();
    assertThat(below.get("n1/a")).isEqualTo("2");
    assertThat(store.waitingWrites()).isZero();
    assertThat(store.get("n1/a")).isEqualTo("2");
  }

  @Test
  void aDeleteHidesTheStoredValueAndRemovesItAtTheFlush() {
    store.put("n1/a", "1");
    store.flushCache();

    assertThat(store.delete("n1/a")).isEqualTo("1");
    assertThat(store.get("n1/a")).isNull();
    assertThat(below.get("n1/a")).isEqualTo("1");
    store.put("n1/b", null); // a null value deletes too
    assertThat(store.get("n1/b")).isNull();

    store.flushCache();
    assertThat(below.get("n1/a")).isNull();
    try (KeyValueIterator<String, String> all = below.all()) {
      assertThat(all.hasNext()).isFalse();
    }
  }

  @Test
  void rangeReadsMergeTheWaitingWritesInKeyOrder() {
    store.putAll(List.of(KeyValue.pair("n1/a", "a0"), KeyValue.pair("n1/b", "b0"), KeyValue.pair("n1/c", "c0"),
        KeyValue.pair("n2/a", "x0")));
    store.flushCache();
    store.put("n1/b", "b1"); // replaces a stored value
    store.delete("n1/c"); // hides one
    store.put("n1/d", "d1"); // adds one after the stored ones
    store.put("n1/0", "01"); // and one before them
    assertThat(store.putIfAbsent("n1/a", "a9")).isEqualTo("a0");
    assertThat(store.putIfAbsent("n1/e", "e1")).isNull();

    assertThat(pairs(store.all())).containsExactly("n1/0=01", "n1/a=a0", "n1/b=b1", "n1/d=d1", "n1/e=e1", "n2/a=x0");
    assertThat(pairs(store.reverseAll()))
        .containsExactly("n2/a=x0", "n1/e=e1", "n1/d=d1", "n1/b=b1", "n1/a=a0", "n1/0=01");
    assertThat(pairs(store.range("n1/a", "n1/d"))).containsExactly("n1/a=a0", "n1/b=b1", "n1/d=d1");
    assertThat(pairs(store.reverseRange("n1/a", "n1/d"))).containsExactly("n1/d=d1", "n1/b=b1", "n1/a=a0");
    assertThat(pairs(store.prefixScan("n1/", new StringSerializer())))
        .containsExactly("n1/0=01", "n1/a=a0", "n1/b=b1", "n1/d=d1", "n1/e=e1");
    try (KeyValueIterator<String, String> it = store.all()) {
      assertThat(it.peekNextKey()).isEqualTo("n1/0");
      assertThat(it.next().key).isEqualTo("n1/0");
    }
  }

  @Test
  void aDeferredWriteIsBuiltAtEachReadOfItAndOnceAtTheFlush() {
    AtomicInteger built = new AtomicInteger();
    store.put("n1/a", "old");
    store.flushCache();
    store.putDeferred("n1/a", () -> "v" + built.incrementAndGet());
    assertThat(built).hasValue(0);

    assertThat(store.get("n1/a")).isEqualTo("v1");
    assertThat(pairs(store.prefixScan("n1/", new StringSerializer()))).containsExactly("n1/a=v2");
    assertThat(below.get("n1/a")).isEqualTo("old");

    store.flushCache();
    assertThat(built).hasValue(3);
    assertThat(below.get("n1/a")).isEqualTo("v3");
    assertThat(store.get("n1/a")).isEqualTo("v3");
    assertThat(built).hasValue(3);
  }

  @Test
  void aWriteReplacesADeferredOneAndADeleteHidesIt() {
    store.putDeferred("n1/a", () -> "deferred");
    store.put("n1/a", "put");
    store.putDeferred("n1/b", () -> "deferred");
    assertThat(store.delete("n1/b")).isEqualTo("deferred");

    store.flushCache();
    assertThat(below.get("n1/a")).isEqualTo("put");
    assertThat(below.get("n1/b")).isNull();
  }

  @Test
  void partsWrittenBetweenTwoCommitsWaitAsOneWriteOverWhatIsStored() {
    store.put("n1/a", "a0|b0");
    store.flushCache();

    store.putPart("n1/a", TWO_PARTS, 0, part("a1"));
    assertThat(store.get("n1/a")).isEqualTo("a1|b0");
    store.putPart("n1/a", TWO_PARTS, 1, part("b1"));
    store.putPart("n1/a", TWO_PARTS, 0, part("a2")); // replaces the first change of its part
    assertThat(store.get("n1/a")).isEqualTo("a2|b1");
    assertThat(pairs(store.all())).containsExactly("n1/a=a2|b1");
    assertThat(store.waitingWrites()).isEqualTo(1);
    assertThat(below.get("n1/a")).isEqualTo("a0|b0");

    store.flushCache();
    assertThat(below.get("n1/a")).isEqualTo("a2|b1");
    store.putPart("n1/a", TWO_PARTS, 1, part("b2")); // over what the commit wrote
    store.flushCache();
    assertThat(below.get("n1/a")).isEqualTo("a2|b2");
  }

  @Test
  void aValueWhosePartsWereAllWrittenIsBuiltWithoutReadingTheStoreBelow() {
    store.put("n1/a", "a0|b0");
    store.flushCache();
    int before = readsBelow.get();

    store.putPart("n1/a", TWO_PARTS, 0, part("a1"));
    assertThat(store.get("n1/a")).isEqualTo("a1|b0");
    assertThat(readsBelow.get() - before).as("the part not written, from the stored value").isEqualTo(1);
    store.putPart("n1/a", TWO_PARTS, 1, part("b1"));
    assertThat(store.get("n1/a")).isEqualTo("a1|b1");
    store.flushCache();
    assertThat(below.get("n1/a")).isEqualTo("a1|b1");
    assertThat(readsBelow.get() - before).as("both written: the store below not read again").isEqualTo(1);
  }

  @Test
  void aPartGoesOverAWaitingWriteOrDeleteAndAWriteReplacesParts() {
    store.put("n1/a", "x|y");
    store.putPart("n1/a", TWO_PARTS, 1, part("z"));
    store.put("n1/b", "stored|");
    store.flushCache();
    store.delete("n1/b");
    store.putPart("n1/b", TWO_PARTS, 0, part("p"));
    store.putPart("n1/c", TWO_PARTS, 1, part("q"));
    store.put("n1/c", "put|");

    assertThat(pairs(store.prefixScan("n1/", new StringSerializer()))).containsExactly("n1/a=x|z", "n1/b=p|", "n1/c=put|");
    store.flushCache();
    assertThat(below.get("n1/a")).isEqualTo("x|z");
    assertThat(below.get("n1/b")).isEqualTo("p|");
    assertThat(below.get("n1/c")).isEqualTo("put|");
  }

  @Test
  void aValueWhosePartsAreAllGoneIsDeleted() {
    store.put("n1/a", "a|b");
    store.put("n1/b", "kept|");
    store.flushCache();

    store.putPart("n1/a", TWO_PARTS, 0, part(""));
    assertThat(store.get("n1/a")).isEqualTo("|b");
    store.putPart("n1/a", TWO_PARTS, 1, part(""));
    assertThat(store.get("n1/a")).isNull();
    assertThat(pairs(store.all())).as("skipped by range reads").containsExactly("n1/b=kept|");

    store.flushCache();
    assertThat(below.get("n1/a")).isNull();
    assertThat(below.get("n1/b")).isEqualTo("kept|");
  }

  @Test
  void onlyAStoreThatWritesBackTakesDeferredWrites() {
    assertThat(WriteBackStore.beneath(store)).isSameAs(store);
    assertThatThrownBy(() -> WriteBackStore.beneath(below)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("write-back").hasMessageContaining("does not write back");
  }

  @Test
  void aDirtyCloseDropsWhatWaited() {
    store.put("n1/a", "1");
    store.flushCache();
    store.put("n1/a", "2");
    store.put("n1/b", "1");

    store.clearCache();

    assertThat(store.get("n1/a")).isEqualTo("1");
    assertThat(store.get("n1/b")).isNull();
    store.flushCache();
    assertThat(below.get("n1/a")).isEqualTo("1");
  }

  @Test
  void aStoreOpenedAgainAfterADirtyCloseWritesNothingFromBefore() {
    store.put("n1/a", "1");
    store.flushCache();
    store.put("n1/a", "2"); // never committed

    store.close(); // a dirty close: no flush first
    store.init(new MockProcessorContext<>().getStateStoreContext(), store); // a revived task opens it again
    store.flushCache();

    assertThat(store.waitingWrites()).isZero();
    assertThat(below.get("n1/a")).isNotEqualTo("2");
  }

  @Test
  void ordersKeysAsTheirUtf8BytesAre() {
    // U+FF21 sorts before U+1F600 as UTF-8 bytes (EF BC A1 < F0 9F 98 80), after it as UTF-16 units (FF21 > D83D).
    String fullwidth = "\uFF21";
    String emoji = "\uD83D\uDE00";
    assertThat(WriteBackStore.compareUtf8(fullwidth, emoji)).isNegative();
    assertThat(fullwidth.compareTo(emoji)).isPositive();
    assertThat(WriteBackStore.compareUtf8("n1/a", "n1/a")).isZero();
    assertThat(WriteBackStore.compareUtf8("n1/a", "n1/ab")).isNegative();

    store.put(emoji, "e");
    store.flushCache();
    store.put(fullwidth, "f");
    assertThat(pairs(store.all())).containsExactly(fullwidth + "=f", emoji + "=e");
  }

  @Test
  void readsAlwaysAgreeWithAMapOfEveryWrite() {
    Map<String, String> truth = new TreeMap<>(WriteBackStore::compareUtf8);
    Random random = new Random(11);
    for (int step = 0; step < 5_000; step++) {
      String key = "n" + random.nextInt(3) + "/t" + random.nextInt(8);
      switch (random.nextInt(10)) {
        case 0, 1 -> {
          store.put(key, Integer.toString(step));
          truth.put(key, Integer.toString(step));
        }
        case 2, 3 -> {
          String value = "d" + step;
          store.putDeferred(key, () -> value);
          truth.put(key, value);
        }
        case 4 -> {
          assertThat(store.delete(key)).isEqualTo(truth.remove(key));
        }
        case 5 -> {
          int index = random.nextInt(2);
          String value = random.nextInt(4) == 0 ? "" : "p" + step;
          store.putPart(key, TWO_PARTS, index, part(value));
          String[] parts = truth.containsKey(key) ? TWO_PARTS.split(truth.get(key)) : new String[2];
          parts[index] = value.isEmpty() ? null : value;
          String next = TWO_PARTS.of(parts);
          if (next == null) {
            truth.remove(key);
          } else {
            truth.put(key, next);
          }
        }
        case 6 -> store.flushCache();
        case 7 -> assertThat(pairs(store.prefixScan("n1/", new StringSerializer()))).as("step %d", step)
            .containsExactlyElementsOf(expected(truth, "n1/"));
        default -> {
          assertThat(store.get(key)).as("step %d, key %s", step, key).isEqualTo(truth.get(key));
          assertThat(pairs(store.all())).as("step %d", step).containsExactlyElementsOf(expected(truth, ""));
        }
      }
    }
  }

  /**
   * Values of two parts, {@code left|right}; a value without {@code |} is its left part, and an empty part is none.
   */
  private static final TwoParts TWO_PARTS = new TwoParts();

  private static final class TwoParts implements WriteBackStore.Layout<String> {
    @Override
    public int parts() {
      return 2;
    }

    @Override
    public Object part(String value, int index) {
      return split(value)[index];
    }

    @Override
    public String of(Object[] parts) {
      String left = parts[0] == null ? "" : (String) parts[0];
      String right = parts[1] == null ? "" : (String) parts[1];
      return left.isEmpty() && right.isEmpty() ? null : left + "|" + right;
    }

    String[] split(String value) {
      String[] parts = Arrays.copyOf(value.split("\\|", -1), 2);
      for (int i = 0; i < parts.length; i++) {
        parts[i] = parts[i] == null || parts[i].isEmpty() ? null : parts[i];
      }
      return parts;
    }
  }

  /** A part written as {@code value}; {@code ""}: the part is gone. */
  private static WriteBackStore.Deferred<String> part(String value) {
    return () -> value.isEmpty() ? null : value;
  }

  private static List<String> expected(Map<String, String> truth, String prefix) {
    return truth.entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
        .map(e -> e.getKey() + "=" + e.getValue()).toList();
  }

  private static List<String> pairs(KeyValueIterator<String, String> it) {
    List<String> all = new ArrayList<>();
    try (it) {
      it.forEachRemaining(kv -> all.add(kv.key + "=" + kv.value));
    }
    return all;
  }

  private record OpenedStore(KeyValueStore<String, String> below, WriteBackStore<String> store,
      AtomicInteger readsBelow) {}

  /** An in-memory store without cache or changelog (those need a running task), wrapped, and opened. */
  private static OpenedStore build() {
    KeyValueStore<String, String> below = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("write-back"),
        Serdes.String(), Serdes.String()).withCachingDisabled().withLoggingDisabled().build();
    AtomicInteger readsBelow = new AtomicInteger();
    @SuppressWarnings("unchecked")
    KeyValueStore<String, String> counted = (KeyValueStore<String, String>) Proxy.newProxyInstance(
        KeyValueStore.class.getClassLoader(), new Class<?>[] {KeyValueStore.class}, (proxy, method, args) -> {
          if (method.getName().equals("get")) {
            readsBelow.incrementAndGet();
          }
          try {
            return method.invoke(below, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
    WriteBackStore<String> store = new WriteBackStore<>(counted);
    MockProcessorContext<Object, Object> context = new MockProcessorContext<>();
    store.init(context.getStateStoreContext(), store);
    return new OpenedStore(below, store, readsBelow);
  }
}
