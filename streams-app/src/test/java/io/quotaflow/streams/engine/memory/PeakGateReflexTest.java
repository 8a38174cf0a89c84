package io.quotaflow.streams.engine.memory;

import static io.quotaflow.streams.engine.memory.GateTesting.budget;
import static io.quotaflow.streams.engine.memory.GateTesting.NODE;
import static io.quotaflow.streams.engine.memory.GateTesting.count;
import static io.quotaflow.streams.engine.memory.GateTesting.freeze;
import static io.quotaflow.streams.engine.memory.GateTesting.gate;
import static io.quotaflow.streams.engine.memory.GateTesting.interactive;
import static io.quotaflow.streams.engine.memory.GateTesting.mib;
import static io.quotaflow.streams.engine.memory.GateTesting.thaw;
import static io.quotaflow.streams.engine.memory.GateTesting.tick;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The gate's answer to the enforcer's reflex (adopt or overrule), and the table the reflex reads. */
class PeakGateReflexTest {

  @Test
  void aReflexFreezeWithNoFreeSlotIsAdoptedAndQueuedAtTheTimeOfTheReflex() {
    PeakGate gate = gate(count(1), "a", "b", "c");
    tick(gate, 0, 400, "a", "b", "c");
    tick(gate, 1000, 500, "a"); // a holds the slot
    tick(gate, 1000, 400, "b", "c");
    // c crosses at its sample 2000 and is frozen by the gate; b's reflex froze it earlier, at 1500.
    assertThat(tick(gate, 2000, 500, "c")).containsExactly(freeze("c", 2000, GateReason.PEAK_SLOT_BUSY, 0));
    assertThat(gate.onReflexFreeze("b", 1500, mib(460)))
        .containsExactly(freeze("b", 2000, GateReason.REFLEX_ADOPTED, 0));
    assertThat(gate.queuedTasks()).containsExactly("b", "c");
  }

  @Test
  void aReflexFreezeOfATaskTheGateWouldAdmitIsOverruledAndTheTaskHolds() {
    PeakGate gate = gate(count(2), "a", "b");
    tick(gate, 0, 400, "a", "b");
    tick(gate, 1000, 500, "a");
    assertThat(gate.onReflexFreeze("b", 1500, mib(460))).containsExactly(thaw("b", 1500, GateReason.REFLEX_OVERRULED));
    assertThat(gate.table().holders()).containsExactly("a", "b");
  }

  @Test
  void holdersInteractiveTasksAndTasksBelowTheirThresholdAreThawed() {
    PeakGate gate = gate(count(1), "a", "b");
    gate.onSpec(interactive("i"), 0);
    tick(gate, 0, 400, "a", "b", "i");
    tick(gate, 1000, 500, "a");
    assertThat(gate.onReflexFreeze("a", 1100, mib(600))).containsExactly(thaw("a", 1100, GateReason.REFLEX_OVERRULED));
    assertThat(gate.onReflexFreeze("i", 1200, mib(600))).containsExactly(thaw("i", 1200, GateReason.REFLEX_OVERRULED));
    assertThat(gate.onReflexFreeze("b", 1300, mib(430))).containsExactly(thaw("b", 1300, GateReason.REFLEX_OVERRULED));
    // A task the gate does not know: thawed, then withdrawn, so the compacted topic keeps nothing of it.
    assertThat(gate.onReflexFreeze("nobody", 1400, mib(900)))
        .containsExactly(thaw("nobody", 1400, GateReason.REFLEX_OVERRULED), GateDecision.forget(NODE, "nobody", 1400));
    assertThat(gate.queuedTasks()).isEmpty();
  }

  @Test
  void underOffEveryReflexFreezeIsOverruled() {
    PeakGate gate = gate(count(1).withMode(GatingMode.OFF), "a", "b");
    tick(gate, 0, 900, "a", "b");
    assertThat(gate.onReflexFreeze("b", 500, mib(900))).containsExactly(thaw("b", 500, GateReason.REFLEX_OVERRULED));
  }

  @Test
  void theTableNamesHoldersQueueThresholdsAndWhoWouldBeAdmitted() {
    PeakGate gate = gate(count(1), "a", "b", "c");
    gate.onSpec(interactive("i"), 0);
    tick(gate, 0, 400, "a", "b", "c", "i");
    GateTable idle = gate.table();
    assertThat(idle.admitsNewPeak()).isTrue();
    assertThat(idle.freeSlots()).isEqualTo(1);
    assertThat(idle.bytesLeft()).isNull();
    assertThat(idle.tasks()).extracting(GateTable.Row::task).containsExactly("a", "b", "c", "i");
    assertThat(idle.tasks()).allSatisfy(r -> assertThat(r.admitted()).isTrue());
    assertThat(idle.tasks().get(0).thresholdBytes()).isEqualTo((long) Math.floor(1.1 * mib(400)));

    tick(gate, 1000, 500, "a");
    tick(gate, 1000, 500, "b");
    GateTable busy = gate.table();
    assertThat(busy.holders()).containsExactly("a");
    assertThat(busy.queue()).containsExactly("b");
    assertThat(busy.admitsNewPeak()).isFalse();
    assertThat(busy.freeSlots()).isZero();
    assertThat(busy.tasks()).extracting(GateTable.Row::task, GateTable.Row::role, GateTable.Row::admitted)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("a", GateRole.HOLDING, true),
            org.assertj.core.groups.Tuple.tuple("b", GateRole.WAITING, false),
            org.assertj.core.groups.Tuple.tuple("c", GateRole.RUNNING, false),
            // interactive tasks take a slot even when none is free: the reflex never stops them
            org.assertj.core.groups.Tuple.tuple("i", GateRole.RUNNING, true));
  }

  @Test
  void inBudgetTheTableCountsTheBytesLeftAndAdmitsPerTask() {
    // 4 tasks at 400 MiB, a holding at its 1200 MiB peak: 1200 + 3 × 400 = 2400 of 3000 MiB.
    PeakGate gate = gate(budget(3000), "a", "b", "c", "d");
    tick(gate, 0, 400, "a", "b", "c", "d");
    tick(gate, 1000, 500, "a");
    GateTable table = gate.table();
    assertThat(table.bytesLeft()).isEqualTo(mib(3000 - 2400));
    assertThat(table.admitsNewPeak()).isTrue();
    // b's own peak needs 800 MiB more than its usage: more than the 600 MiB left.
    assertThat(table.tasks().get(1).admitted()).isFalse();
  }

  @Test
  void aChangeOfBytesLeftAloneIsRepublishedAtMostOncePerSecond() {
    PeakGate gate = gate(budget(3000), "a", "b");
    tick(gate, 0, 400, "a", "b");
    GateTable first = gate.table();
    tick(gate, 500, 410, "b");
    GateTable halfSecond = gate.table();
    assertThat(halfSecond.sameDecisionsAs(first)).isTrue();
    assertThat(halfSecond.worthPublishingAfter(first)).isFalse();
    tick(gate, 1000, 405, "b");
    assertThat(gate.table().worthPublishingAfter(first)).isTrue();
    tick(gate, 1000, 500, "a"); // a holds now: at once
    assertThat(gate.table().worthPublishingAfter(halfSecond)).isTrue();
  }
}
