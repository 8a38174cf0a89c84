package io.quotaflow.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;

class IdentityMemoSerdeTest {

  /** Counts decodes; a new String each time, so identity shows whether one was reused. */
  private final AtomicInteger decodes = new AtomicInteger();
  private final Serde<String> counting = Serdes.serdeFrom(Serdes.String().serializer(), (topic, data) -> {
    decodes.incrementAndGet();
    return new String(data, StandardCharsets.UTF_8);
  });
  private final IdentityMemoSerde<String> serde = new IdentityMemoSerde<>(counting, 16);

  @Test
  void theArrayItWroteReadsBackAsTheObjectWrittenWithoutADecode() {
    String written = new String("state-1".getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    byte[] bytes = serde.serializer().serialize("t", written);

    assertThat(bytes).isEqualTo("state-1".getBytes(StandardCharsets.UTF_8));
    assertThat(serde.deserializer().deserialize("t", bytes)).isSameAs(written);
    assertThat(decodes).hasValue(0);
  }

  @Test
  void anArrayWithTheSameContentButNotTheSameArrayIsDecoded() {
    String written = "state-1";
    serde.serializer().serialize("t", written);

    String read = serde.deserializer().deserialize("t", "state-1".getBytes(StandardCharsets.UTF_8));
    assertThat(read).isEqualTo("state-1").isNotSameAs(written);
    assertThat(decodes).hasValue(1);
  }

  @Test
  void anArrayDecodedOnceIsNotDecodedAgain() {
    byte[] fromRocksDb = "state-2".getBytes(StandardCharsets.UTF_8);
    String first = serde.deserializer().deserialize("t", fromRocksDb);

    assertThat(serde.deserializer().deserialize("t", fromRocksDb)).isSameAs(first);
    assertThat(decodes).hasValue(1);
    assertThat(serde.deserializer().deserialize("t", null)).isNull();
    assertThat(serde.serializer().serialize("t", null)).isNull();
  }

  @Test
  void anotherThreadDecodesForItselfAndLeavesTheMemoAlone() throws Exception {
    String written = "state-3";
    byte[] bytes = serde.serializer().serialize("t", written);

    String elsewhere = CompletableFuture.supplyAsync(() -> serde.deserializer().deserialize("t", bytes)).get();
    assertThat(elsewhere).isEqualTo("state-3").isNotSameAs(written);
    assertThat(decodes).as("an interactive query's thread decodes").hasValue(1);
    assertThat(serde.deserializer().deserialize("t", bytes)).as("the writer's memo is intact").isSameAs(written);
  }

  @Test
  void aWriteFromANewThreadStartsANewMemo() throws Exception {
    byte[] before = serde.serializer().serialize("t", "state-4");
    byte[] moved = CompletableFuture.supplyAsync(() -> serde.serializer().serialize("t", "state-5")).get();

    assertThat(serde.deserializer().deserialize("t", before)).as("this thread no longer owns the memo").isEqualTo("state-4");
    assertThat(serde.deserializer().deserialize("t", moved)).isEqualTo("state-5");
    assertThat(decodes).hasValue(2);
  }

  @Test
  void holdsNoMoreThanItsSlotsAndANewArrayReplacesTheOlderOfItsSet() {
    IdentityMemoSerde<String> two = new IdentityMemoSerde<>(counting, 2); // one set: every array lands in it
    byte[] first = two.serializer().serialize("t", "a");
    byte[] second = two.serializer().serialize("t", "b");

    assertThat(two.deserializer().deserialize("t", first)).isEqualTo("a");
    assertThat(two.deserializer().deserialize("t", second)).isEqualTo("b");
    assertThat(decodes).as("a second array in a set keeps the first").hasValue(0);

    byte[] third = two.serializer().serialize("t", "c");
    assertThat(two.deserializer().deserialize("t", third)).isEqualTo("c");
    assertThat(two.deserializer().deserialize("t", second)).isEqualTo("b");
    assertThat(decodes).as("the newer two are held").hasValue(0);
    assertThat(two.deserializer().deserialize("t", first)).isEqualTo("a");
    assertThat(decodes).as("the oldest went and is decoded again").hasValue(1);
    assertThat(two.deserializer().deserialize("t", first)).as("and then held").isEqualTo("a");
    assertThat(decodes).hasValue(1);
    assertThat(two.deserializer().deserialize("t", third)).as("next to the newest").isEqualTo("c");
    assertThat(two.deserializer().deserialize("t", second)).as("whose older neighbour went").isEqualTo("b");
    assertThat(decodes).hasValue(2);
  }

  @Test
  void slotsAreAPowerOfTwoOfAtLeastTwo() {
    assertThatThrownBy(() -> new IdentityMemoSerde<>(counting, 1000)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("power of two of at least 2, not 1000");
    assertThatThrownBy(() -> new IdentityMemoSerde<>(counting, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new IdentityMemoSerde<>(counting, 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not 1");
  }
}
