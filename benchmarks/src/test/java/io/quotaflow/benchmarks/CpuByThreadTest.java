package io.quotaflow.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How {@code bench cpu} splits a window's CPU per sample by thread; names as {@link ThreadCpu} gives them. */
class CpuByThreadTest {

  private static final long MS = 1_000_000;

  @Test
  void eachGroupGetsItsThreadsAndTheRestIsWhatNoGroupAndNoStreamThreadSpent() {
    Map<String, Long> spent = new LinkedHashMap<>();
    spent.put("bench-throughpu", 700 * MS); // the stream threads' comm, counted through StreamThreadsCpu instead
    spent.put("data-plane-kafk", 200 * MS);
    spent.put("kafka-producer-", 150 * MS);
    spent.put("rocksdb:low", 80 * MS);
    spent.put("rocksdb:high", 20 * MS);
    spent.put("GC Thread", 90 * MS);
    spent.put("G1 Refine", 10 * MS);
    spent.put("C2 CompilerThre", 30 * MS);
    spent.put("bench-feed-benc", 60 * MS);
    spent.put("bench-watch-ben", 40 * MS);

    CpuByThread split = CpuByThread.of(spent, 700 * MS, 100_000, 1.0);

    assertThat(split.microsPerSample()).containsExactly(
        Map.entry("stream threads", 7.0), Map.entry("broker", 2.0), Map.entry("producers' I/O", 1.5),
        Map.entry("RocksDB", 1.0), Map.entry("GC", 1.0), Map.entry("JIT", 0.3), Map.entry("feed", 0.6),
        Map.entry("rest", 0.4));
    assertThat(split.totalMicrosPerSample()).isCloseTo(13.8, within(1e-9));
    assertThat(split.cores()).isCloseTo(1.38, within(1e-9));
    assertThat(split.line()).isEqualTo("CPU per sample by thread: stream threads 7.00, broker 2.00, producers' I/O 1.50, "
        + "RocksDB 1.00, GC 1.00, JIT 0.30, feed 0.60, rest 0.40, all 13.8 µs (1.38 cores)");
  }

  @Test
  void aWindowIsTheEndMinusTheStartAndAThreadNewInItCountsFromZero() {
    Map<String, Long> start = Map.of("data-plane-kafk", 100L, "gone-before-end", 50L);
    Map<String, Long> end = Map.of("data-plane-kafk", 350L, "rocksdb:low", 40L);

    assertThat(CpuByThread.difference(start, end))
        .containsOnly(Map.entry("data-plane-kafk", 250L), Map.entry("rocksdb:low", 40L));
  }

  @Test
  void aWindowWithoutSamplesIsRefused() {
    assertThatThrownBy(() -> CpuByThread.of(Map.of(), 0, 0, 60.0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs samples");
  }
}
