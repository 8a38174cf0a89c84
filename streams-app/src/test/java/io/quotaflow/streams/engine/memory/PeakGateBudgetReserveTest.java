package io.quotaflow.streams.engine.memory;

import static io.quotaflow.streams.engine.memory.GateTesting.budget;
import static io.quotaflow.streams.engine.memory.GateTesting.freeze;
import static io.quotaflow.streams.engine.memory.GateTesting.gate;
import static io.quotaflow.streams.engine.memory.GateTesting.mib;
import static io.quotaflow.streams.engine.memory.GateTesting.tick;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * BUDGET's reserve fraction f: every other task that does not hold counts at usage + f · (threshold − usage).
 * Specs here: normal 400 MiB, so threshold 440 MiB, peak 1200 MiB.
 */
class PeakGateBudgetReserveTest {

  private static final String[] SIX = {"a", "b", "c", "d", "e", "f"};

  /** a holds; then b approaches its peak on a 4100 MiB node, the other four at 400 MiB, 40 MiB below threshold. */
  private static boolean secondPeakAdmitted(double fraction) {
    PeakGate gate = gate(budget(4100).withBudgetReserveFraction(fraction), SIX);
    tick(gate, 0, 400, SIX);
    assertThat(tick(gate, 1000, 500, "a")).isEmpty();
    return tick(gate, 1000, 500, "b").isEmpty();
  }

  @Test
  void fractionZeroIsDesignsBudgetAndOneReservesEveryOtherThreshold() {
    assertThat(budget(4100).budgetReserveFraction()).isZero();
    // f = 0: 2 × 1200 + 4 × 400 = 4000 ≤ 4100.
    assertThat(secondPeakAdmitted(0)).isTrue();
    // f = 0.5: 2400 + 4 × 420 = 4080 ≤ 4100.
    assertThat(secondPeakAdmitted(0.5)).isTrue();
    // f = 0.75: 2400 + 4 × 430 = 4120 > 4100.
    assertThat(secondPeakAdmitted(0.75)).isFalse();
    // f = 1: 2400 + 4 × 440 = 4160 > 4100, the rule a running task is only ever stopped by at its threshold.
    PeakGate gate = gate(budget(4100).withBudgetReserveFraction(1), SIX);
    tick(gate, 0, 400, SIX);
    tick(gate, 1000, 500, "a");
    assertThat(tick(gate, 1000, 500, "b")).containsExactly(freeze("b", 1000, GateReason.PEAK_OVER_BUDGET, 0));
  }

  @Test
  void aTaskAtItsThresholdReservesNothingMore() {
    // c's normal is 700 MiB, so its threshold is 770 MiB: at 770 it still runs, with no growth left to reserve.
    PeakGate gate = gate(budget(4100).withBudgetReserveFraction(1), "a", "b");
    gate.onSpec(TaskMemorySpec.batch("c", "op", mib(700), mib(1200)), 0);
    tick(gate, 0, 400, "a", "b");
    tick(gate, 0, 770, "c"); // threshold 770
    tick(gate, 1000, 500, "a");
    // 1200 (a) + 400 + 40 (b's growth) + 770 (c at its threshold, nothing to reserve) = 2410.
    assertThat(gate.table().bytesLeft()).isEqualTo(mib(4100 - 2410));
  }

  @Test
  void theTableCountsTheReserveInBytesLeft() {
    PeakGate gate = gate(budget(4100).withBudgetReserveFraction(0.5), SIX);
    tick(gate, 0, 400, SIX);
    tick(gate, 1000, 500, "a");
    // 1200 + 5 × (400 + 20).
    assertThat(gate.table().bytesLeft()).isEqualTo(mib(4100 - 3300));
  }

  @Test
  void eachRowsAdmittedIsWhatTheGateDoesWhenThatTaskCrossesItsThreshold() {
    SplittableRandom random = new SplittableRandom(21);
    int admitted = 0;
    int refused = 0;
    for (int trial = 0; trial < 400; trial++) {
      double fraction = random.nextInt(5) / 4.0;
      long totalMib = 2500 + random.nextInt(2500);
      PeakGate gate = gate(budget(totalMib).withBudgetReserveFraction(fraction), SIX);
      for (String task : SIX) {
        tick(gate, 0, 300 + random.nextInt(141), task); // 300 .. 440 MiB: at or below the threshold
      }
      int holders = random.nextInt(3);
      for (int h = 0; h < holders; h++) {
        tick(gate, 1000, 450 + random.nextInt(700), SIX[h]);
      }
      GateTable table = gate.table();
      String task = SIX[5];
      GateTable.Row row = table.tasks().stream().filter(r -> r.task().equals(task)).findFirst().orElseThrow();
      assertThat(row.role()).isEqualTo(GateRole.RUNNING);
      boolean holds = tick(gate, 2000, 441 + random.nextInt(700), task).isEmpty()
          && gate.table().holders().contains(task);
      assertThat(holds).as("trial %d, f %s, %d MiB", trial, fraction, totalMib).isEqualTo(row.admitted());
      if (row.admitted()) {
        admitted++;
      } else {
        refused++;
      }
    }
    // Both answers occur, so the comparison above tested something each way.
    assertThat(admitted).isGreaterThan(20);
    assertThat(refused).isGreaterThan(20);
  }

  @Test
  void fractionOutsideZeroToOneIsRejectedAndWithersKeepIt() {
    assertThatThrownBy(() -> budget(4500).withBudgetReserveFraction(1.5)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> budget(4500).withBudgetReserveFraction(-0.1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> budget(4500).withBudgetReserveFraction(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
    PeakGateConfig config = budget(4500).withBudgetReserveFraction(0.25).withHeadroomBytes(mib(100))
        .withMaxConcurrentPeaks(2).withIdleTimeoutMs(5000).withMode(GatingMode.BUDGET);
    assertThat(config.budgetReserveFraction()).isEqualTo(0.25);
  }
}
