package io.quotaflow.cgroups;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class KernfsParseTest {

  private static ByteBuffer content(String text) {
    // Direct and with spare capacity, as the readers' buffers are.
    ByteBuffer buffer = ByteBuffer.allocateDirect(text.length() + 32);
    buffer.put(text.getBytes(StandardCharsets.US_ASCII)).flip();
    return buffer;
  }

  @Test
  void readsASingleValueFile() {
    assertThat(KernfsParse.firstLong(content("196653892341\n"))).isEqualTo(196653892341L);
    assertThat(KernfsParse.firstLong(content("-1\n"))).isEqualTo(-1);
    assertThat(KernfsParse.firstLong(content("\n"))).isEqualTo(KernfsParse.MISSING);
    assertThat(KernfsParse.firstLong(content("max 100000\n"))).isEqualTo(KernfsParse.MISSING);
  }

  @Test
  void findsWholeKeysOnly() {
    ByteBuffer stat = content("cache 5\nrss_huge 7\nrss 11\ntotal_rss 13\n");
    assertThat(KernfsParse.keyed(stat, KernfsParse.ascii("rss"))).isEqualTo(11);
    assertThat(KernfsParse.keyed(stat, KernfsParse.ascii("total_rss"))).isEqualTo(13);
    assertThat(KernfsParse.keyed(stat, KernfsParse.ascii("rss_huge"))).isEqualTo(7);
    assertThat(KernfsParse.keyed(stat, KernfsParse.ascii("cach"))).isEqualTo(KernfsParse.MISSING);
    assertThat(KernfsParse.keyed(stat, KernfsParse.ascii("anon"))).isEqualTo(KernfsParse.MISSING);
  }

  @Test
  void readsTheLastLineWithoutANewline() {
    assertThat(KernfsParse.keyed(content("populated 1\nfrozen 1"), KernfsParse.ascii("frozen")))
        .isEqualTo(1);
  }

  @Test
  void ignoresContentBeyondTheLimit() {
    ByteBuffer buffer = content("nr_throttled 3\n");
    buffer.limit(5);
    assertThat(KernfsParse.keyed(buffer, KernfsParse.ascii("nr_throttled"))).isEqualTo(KernfsParse.MISSING);
  }

  @Test
  void readsBothFieldsOfCpuMax() {
    ByteBuffer max = content("50000 100000\n");
    assertThat(KernfsParse.firstLong(max)).isEqualTo(50000);
    assertThat(KernfsParse.longAt(max, KernfsParse.afterFirstSpace(max))).isEqualTo(100000);
    assertThat(KernfsParse.startsWithWord(content("max 100000\n"), KernfsParse.ascii("max"))).isTrue();
    assertThat(KernfsParse.startsWithWord(content("maxi 1\n"), KernfsParse.ascii("max"))).isFalse();
  }

  @Test
  void saturatesInsteadOfWrapping() {
    assertThat(KernfsParse.firstLong(content("18446744073709551615\n"))).isEqualTo(Long.MAX_VALUE);
  }

  @Property
  void parsesWhatLongToStringWrites(@ForAll long value) {
    if (value != Long.MIN_VALUE) {
      assertThat(KernfsParse.firstLong(content(value + "\n"))).isEqualTo(value);
    }
  }
}
