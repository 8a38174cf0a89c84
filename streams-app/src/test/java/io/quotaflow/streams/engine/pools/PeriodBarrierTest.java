package io.quotaflow.streams.engine.pools;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class PeriodBarrierTest {

  private static PeriodBarrier.Report report(int partition, long period, long ucpu) {
    return new PeriodBarrier.Report(partition, period, 2, Map.of("p", new PeriodBarrier.PoolSum(ucpu, 1)));
  }

  private static List<Long> periods(List<PeriodBarrier.ReadyPeriod> ready) {
    return ready.stream().map(PeriodBarrier.ReadyPeriod::period).toList();
  }

  @Test
  void aPeriodWaitsForEveryPartitionThenSumsEachOnesReportInForce() {
    PeriodBarrier barrier = new PeriodBarrier(2);
    assertThat(barrier.add(report(0, 10, 1_000_000))).isEmpty();
    assertThat(barrier.add(report(0, 11, 2_000_000))).isEmpty();
    List<PeriodBarrier.ReadyPeriod> ready = barrier.add(report(1, 11, 500_000));
    assertThat(periods(ready)).containsExactly(10L, 11L);
    assertThat(ready.get(0).loads().get("p").demandCpu()).as("period 10: only partition 0 had reported").isEqualTo(1.0);
    assertThat(ready.get(1).loads().get("p").demandCpu()).isEqualTo(2.5);
    assertThat(ready.get(1).nodeCpus()).isEqualTo(4);
  }

  @Test
  void aPartitionThatSkipsPeriodsCountsWithItsLastReport() {
    PeriodBarrier barrier = new PeriodBarrier(2);
    barrier.add(report(0, 10, 1_000_000));
    barrier.add(report(1, 10, 1_000_000));
    assertThat(barrier.add(report(0, 14, 3_000_000))).isEmpty();
    List<PeriodBarrier.ReadyPeriod> ready = barrier.add(report(1, 14, 1_000_000));
    assertThat(periods(ready)).containsExactly(11L, 12L, 13L, 14L);
    assertThat(ready.get(0).loads().get("p").demandCpu()).isEqualTo(2.0);
    assertThat(ready.get(3).loads().get("p").demandCpu()).isEqualTo(4.0);
  }

  @Test
  void aLaggingPartitionIsNotWaitedForButStillCounts() {
    PeriodBarrier barrier = new PeriodBarrier(2);
    barrier.add(report(1, 0, 1_000_000));
    List<Long> computed = new ArrayList<>();
    for (long period = 0; period <= 10; period++) {
      computed.addAll(periods(barrier.add(report(0, period, 1_000_000))));
    }
    assertThat(computed).as("partition 1 stopped at 0 and is waited for while it lags by 10 or less").containsExactly(0L);
    List<PeriodBarrier.ReadyPeriod> released = barrier.add(report(0, 11, 1_000_000));
    assertThat(periods(released)).as("then left behind").containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L);
    assertThat(released.get(10).loads().get("p").demandCpu()).as("its last sums still count").isEqualTo(2.0);
  }

  @Test
  void aSilentPartitionIsWaitedForOnlyAtTheStart() {
    PeriodBarrier barrier = new PeriodBarrier(3); // partition 2 never reports: it has no nodes
    List<Long> computed = new ArrayList<>();
    for (long period = 100; period <= 115; period++) {
      computed.addAll(periods(barrier.add(report(0, period, 1_000_000))));
      computed.addAll(periods(barrier.add(report(1, period, 1_000_000))));
    }
    assertThat(computed.get(0)).isEqualTo(100L);
    assertThat(computed).hasSize(16);
    assertThat(computed.get(15)).isEqualTo(115L);
  }

  @Test
  void aLongPauseOfTheWholeStreamComputesOnlyTheLastPeriods() {
    PeriodBarrier barrier = new PeriodBarrier(1);
    barrier.add(report(0, 0, 1_000_000));
    List<PeriodBarrier.ReadyPeriod> ready = barrier.add(report(0, 10_000, 1_000_000));
    assertThat(ready).hasSize(PeriodBarrier.MAX_CATCH_UP_PERIODS);
    assertThat(ready.get(ready.size() - 1).period()).isEqualTo(10_000L);
  }

  @Test
  void restoredFromItsSnapshotItGoesOnAlike() {
    PeriodBarrier a = new PeriodBarrier(2);
    a.add(report(0, 5, 1));
    a.add(report(1, 5, 2));
    a.add(report(0, 6, 3));
    PeriodBarrier b = PeriodBarrier.restore(2, a.snapshot());
    assertThat(b.add(report(1, 7, 4))).isEqualTo(a.add(report(1, 7, 4)));
    assertThat(b.snapshot()).isEqualTo(a.snapshot());
  }

  /**
   * The barrier's promise: however the partitions' reports interleave — as long as none arrives more
   * than {@link PeriodBarrier#INACTIVE_AFTER_PERIODS} behind the others, which would leave it behind
   * — the same periods with the same inputs.
   */
  @Property(tries = 200)
  void theOutputDoesNotDependOnHowPartitionsInterleave(@ForAll @IntRange(min = 1, max = 6) int partitions,
      @ForAll long seed) {
    Random random = new Random(seed);
    List<LinkedList<PeriodBarrier.Report>> streams = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      LinkedList<PeriodBarrier.Report> stream = new LinkedList<>();
      long period = 50 + random.nextInt(3);
      for (int i = 0; i < 30; i++) {
        stream.add(report(p, period, random.nextInt(5_000_000)));
        period += 1 + (random.nextInt(5) == 0 ? random.nextInt(3) : 0);
      }
      streams.add(stream);
    }
    List<PeriodBarrier.ReadyPeriod> inOrder = run(partitions, streams, new Random(1), true);
    List<PeriodBarrier.ReadyPeriod> shuffled = run(partitions, streams, random, false);
    assertThat(shuffled).isEqualTo(inOrder);
  }

  /**
   * Feeds every partition's reports in their own order, the next partition chosen round-robin or at
   * random among those whose next report is at most 5 periods ahead of the slowest one's.
   */
  private static List<PeriodBarrier.ReadyPeriod> run(int partitions, List<LinkedList<PeriodBarrier.Report>> streams,
      Random random, boolean roundRobin) {
    List<LinkedList<PeriodBarrier.Report>> left = new ArrayList<>();
    streams.forEach(s -> left.add(new LinkedList<>(s)));
    PeriodBarrier barrier = new PeriodBarrier(partitions);
    List<PeriodBarrier.ReadyPeriod> out = new ArrayList<>();
    int next = 0;
    while (left.stream().anyMatch(s -> !s.isEmpty())) {
      long slowest = left.stream().filter(s -> !s.isEmpty()).mapToLong(s -> s.getFirst().period()).min().orElseThrow();
      int p = roundRobin ? next++ % partitions : random.nextInt(partitions);
      if (!left.get(p).isEmpty() && left.get(p).getFirst().period() <= slowest + 5) {
        out.addAll(barrier.add(left.get(p).removeFirst()));
      }
    }
    return out;
  }
}
