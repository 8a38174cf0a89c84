package io.quotaflow.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;

class MemoizingSerdeTest {

  /** Counts decodes; a new String each time, so identity shows whether one was reused. */
  private final AtomicInteger decodes = new AtomicInteger();
  private final Serde<String> counting = Serdes.serdeFrom(Serdes.String().serializer(), (topic, data) -> {
    decodes.incrementAndGet();
    return new String(data, StandardCharsets.UTF_8);
  });

  @Test
  void theSameBytesAreDecodedOnceAndOtherBytesAgain() {
    MemoizingSerde<String> serde = new MemoizingSerde<>(counting);
    String first = serde.deserializer().deserialize("t", bytes("cluster-a"));
    String again = serde.deserializer().deserialize("t", bytes("cluster-a"));
    String other = serde.deserializer().deserialize("t", bytes("cluster-b"));

    assertThat(again).isSameAs(first);
    assertThat(other).isEqualTo("cluster-b");
    assertThat(decodes).hasValue(2);
    assertThat(serde.deserializer().deserialize("t", null)).isNull();
  }

  @Test
  void aCallerReusingItsArrayCannotChangeWhatWasRemembered() {
    MemoizingSerde<String> serde = new MemoizingSerde<>(counting);
    byte[] buffer = bytes("node-1");
    serde.deserializer().deserialize("t", buffer);
    buffer[5] = '2';

    assertThat(serde.deserializer().deserialize("t", buffer)).isEqualTo("node-2");
    assertThat(serde.deserializer().deserialize("t", bytes("node-1"))).isEqualTo("node-1");
    assertThat(decodes).hasValue(2);
  }

  @Test
  void aFullMemoStartsOver() {
    MemoizingSerde<String> serde = new MemoizingSerde<>(counting);
    for (int i = 0; i <= MemoizingSerde.MAX_ENTRIES; i++) {
      serde.deserializer().deserialize("t", bytes("node-" + i));
    }
    assertThat(serde.size()).isEqualTo(1);
  }

  @Test
  void serializingIsTheInnerSerdes() {
    MemoizingSerde<String> serde = new MemoizingSerde<>(counting);
    assertThat(serde.serializer().serialize("t", "x")).isEqualTo(bytes("x"));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
