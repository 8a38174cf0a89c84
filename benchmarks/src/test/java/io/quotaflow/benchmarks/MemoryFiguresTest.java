package io.quotaflow.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import io.quotaflow.streams.engine.memory.GatingMode;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class MemoryFiguresTest {

  @Test
  void figuresPoolTicksOfAllSeedsAndCompareEachTaskWithItsUngatedSelf() {
    long[] first = LongStream.rangeClosed(1, 100).map(i -> i * 50).toArray(); // 50 .. 5000
    long[] second = LongStream.rangeClosed(1, 100).map(i -> 10).toArray();
    MemoryRun a = new MemoryRun(GatingMode.COUNT, 0, 1, first, new int[] {200, 300}, 7_000, 3);
    MemoryRun b = new MemoryRun(GatingMode.COUNT, 0, 2, second, new int[] {100, 100}, 9_000, 1);
    Map<Long, MemoryRun> ungated = Map.of(
        1L, new MemoryRun(GatingMode.OFF, 0, 1, first, new int[] {100, 300}, 0, 0),
        2L, new MemoryRun(GatingMode.OFF, 0, 2, second, new int[] {100, 50}, 0, 0));

    MemoryFigures f = MemoryFigures.of(List.of(a, b), ungated, 4500);

    assertThat(f.maxMib()).isEqualTo(5000);
    // 200 ticks pooled: the 198th smallest is the 98th of the first run.
    assertThat(f.p99Mib()).isEqualTo(4900);
    assertThat(f.overshootMib()).isEqualTo(500);
    assertThat(f.ticksOverBudgetPercent()).isEqualTo(100.0 * 10 / 200, offset(1e-9));
    assertThat(f.meanSlowdown()).isEqualTo((2.0 + 1.0 + 1.0 + 2.0) / 4, offset(1e-9));
    assertThat(f.maxSlowdown()).isEqualTo(2.0);
    assertThat(f.maxHeadWaitMs()).isEqualTo(9_000);
    assertThat(f.worstSeed()).isEqualTo(1);
  }

  @Test
  void noOvershootWhenMemoryStaysWithinTheBudget() {
    MemoryRun run = new MemoryRun(GatingMode.BUDGET, 0, 1, new long[] {4000, 4500}, new int[] {10}, 0, 0);
    MemoryFigures f = MemoryFigures.of(List.of(run), Map.of(1L, run), 4500);
    assertThat(f.overshootMib()).isZero();
    assertThat(f.ticksOverBudgetPercent()).isZero();
  }
}
