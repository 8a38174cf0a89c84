package io.quotaflow.streams.engine.memory;

import static io.quotaflow.streams.engine.memory.GateTesting.NODE;
import static io.quotaflow.streams.engine.memory.GateTesting.batch;
import static io.quotaflow.streams.engine.memory.GateTesting.budget;
import static io.quotaflow.streams.engine.memory.GateTesting.count;
import static io.quotaflow.streams.engine.memory.GateTesting.freeze;
import static io.quotaflow.streams.engine.memory.GateTesting.gate;
import static io.quotaflow.streams.engine.memory.GateTesting.interactive;
import static io.quotaflow.streams.engine.memory.GateTesting.mib;
import static io.quotaflow.streams.engine.memory.GateTesting.sample;
import static io.quotaflow.streams.engine.memory.GateTesting.thaw;
import static org.assertj.core.groups.Tuple.tuple;
import static io.quotaflow.streams.engine.memory.GateTesting.tick;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class PeakGateTest {

  @Nested
  class Count {

    @Test
    void secondPeakWaitsFrozenUntilSlotFrees() {
      PeakGate gate = gate(count(1), "a", "b");
      assertThat(tick(gate, 0, 400, "a", "b")).isEmpty();

      assertThat(gate.onSample(sample("a", 1000, 500))).isEmpty();
      assertThat(gate.onSample(sample("b", 1000, 500)))
          .containsExactly(freeze("b", 1000, GateReason.PEAK_SLOT_BUSY, 0));

      assertThat(tick(gate, 2000, 1200, "a")).isEmpty();
      assertThat(tick(gate, 2000, 500, "b")).isEmpty();
      assertThat(gate.onSample(sample("a", 3000, 400)))
          .containsExactly(thaw("b", 3000, GateReason.SLOT_FREED));
      assertThat(gate.status()).isEqualTo(new GateStatus(1, 0, 0, false, 0));
    }

    @Test
    void holderKeepsItsSlotUntilUsageFallsToTheReleaseRatio() {
      PeakGate gate = gate(count(1), "a", "b");
      tick(gate, 0, 500, "a");
      tick(gate, 0, 500, "b");
      // 430 MiB is below the 440 MiB threshold but above the 420 MiB release: the slot stays taken.
      assertThat(tick(gate, 1000, 430, "a")).isEmpty();
      assertThat(gate.queuedTasks()).containsExactly("b");
      assertThat(tick(gate, 2000, 420, "a")).containsExactly(thaw("b", 2000, GateReason.SLOT_FREED));
    }

    @Test
    void usageExactlyAtTheThresholdIsNotYetAPeak() {
      PeakGate gate = gate(count(1), "a", "b");
      tick(gate, 0, 500, "a");
      // 1.1 × 400 MiB = 440 MiB: "approaching" is strictly above it.
      assertThat(gate.onSample(MemorySample.running("b", 0, mib(440)))).isEmpty();
      assertThat(gate.onSample(MemorySample.running("b", 1, mib(440) + 1))).hasSize(1);
    }

    @Test
    void queueThawsInFreezeOrderWithTiesBrokenByTaskId() {
      PeakGate gate = gate(count(1), "h", "a", "b", "c");
      tick(gate, 0, 500, "h");
      assertThat(tick(gate, 1000, 500, "c", "b"))
          .containsExactly(
              freeze("c", 1000, GateReason.PEAK_SLOT_BUSY, 0), freeze("b", 1000, GateReason.PEAK_SLOT_BUSY, 0));
      assertThat(tick(gate, 2000, 500, "a")).containsExactly(freeze("a", 2000, GateReason.PEAK_SLOT_BUSY, 2));
      assertThat(gate.queuedTasks()).containsExactly("b", "c", "a");

      assertThat(tick(gate, 3000, 400, "h")).containsExactly(thaw("b", 3000, GateReason.SLOT_FREED));
      assertThat(tick(gate, 4000, 400, "b")).containsExactly(thaw("c", 4000, GateReason.SLOT_FREED));
      assertThat(tick(gate, 5000, 400, "c")).containsExactly(thaw("a", 5000, GateReason.SLOT_FREED));
    }

    @Test
    void twoSlotsLetTwoPeaksRunAndFreezeTheThird() {
      PeakGate gate = gate(count(2), "a", "b", "c");
      assertThat(tick(gate, 0, 600, "a", "b")).isEmpty();
      assertThat(tick(gate, 0, 600, "c")).containsExactly(freeze("c", 0, GateReason.PEAK_SLOT_BUSY, 0));
    }

    @Test
    void raisingMaxConcurrentPeaksThawsTheHeadAtOnce() {
      PeakGate gate = gate(count(1), "a", "b", "c");
      tick(gate, 0, 600, "a", "b", "c");
      assertThat(gate.onConfig(count(2), 500)).containsExactly(thaw("b", 500, GateReason.SLOT_FREED));
      assertThat(gate.queuedTasks()).containsExactly("c");
    }
  }

  @Nested
  class WhoIsGated {

    @Test
    void interactiveTaskIsNeverFrozenButHoldsTheSlot() {
      PeakGate gate = gate(count(1), "a", "b");
      gate.onSpec(interactive("i"), 0);
      assertThat(tick(gate, 0, 600, "i")).isEmpty();
      assertThat(tick(gate, 0, 600, "a")).containsExactly(freeze("a", 0, GateReason.PEAK_SLOT_BUSY, 0));
      assertThat(gate.status().holders()).isEqualTo(1);

      // An interactive peak is let through even with every slot taken...
      PeakGate busy = gate(count(1), "a");
      busy.onSpec(interactive("i"), 0);
      tick(busy, 0, 600, "a");
      assertThat(tick(busy, 0, 900, "i")).isEmpty();
      assertThat(busy.status().holders()).isEqualTo(2);
      // ...and its slot keeps the next batch peak waiting after the batch holder is done.
      busy.onSpec(batch("b"), 0);
      tick(busy, 1000, 600, "b");
      assertThat(tick(busy, 2000, 400, "a")).isEmpty();
      assertThat(tick(busy, 3000, 400, "i")).containsExactly(thaw("b", 3000, GateReason.SLOT_FREED));
    }

    @Test
    void taskWithoutSpecOrKnownNormalIsNeverGated() {
      PeakGate gate = gate(count(1), "a");
      gate.onSpec(TaskMemorySpec.profiled("p", "never-seen-op"), 0);
      tick(gate, 0, 600, "a");
      assertThat(tick(gate, 0, 5000, "unknown", "p")).isEmpty();
      assertThat(gate.status()).isEqualTo(new GateStatus(1, 0, 0, false, 0));
    }

    @Test
    void learnedProfileGivesTheNormalWhenTheSpecNamesNone() {
      ProfileBook book = new ProfileBook();
      book.learn(new FinishedTaskUsage("etl", mib(400), mib(1200)));
      PeakGate gate = new PeakGate(NODE, count(1), book);
      gate.onSpec(batch("a"), 0);
      gate.onSpec(TaskMemorySpec.profiled("p", "etl"), 0);
      tick(gate, 0, 600, "a");
      assertThat(tick(gate, 0, 441, "p")).containsExactly(freeze("p", 0, GateReason.PEAK_SLOT_BUSY, 0));
    }

    @Test
    void aProfileLearnedAfterTheGateLookedItUpCountsOnceTheGateIsToldProfilesChanged() {
      ProfileBook book = new ProfileBook();
      PeakGate gate = new PeakGate(NODE, count(1), book);
      gate.onSpec(batch("a"), 0);
      gate.onSpec(TaskMemorySpec.profiled("p", "etl"), 0);
      tick(gate, 0, 600, "a");
      assertThat(tick(gate, 0, 300, "p")).as("etl unknown: p is not gated").isEmpty();
      book.learn(new FinishedTaskUsage("etl", mib(400), mib(1200)));

      assertThat(tick(gate, 1000, 441, "p")).as("the gate keeps the lookup it made").isEmpty();
      gate.profilesChanged();
      assertThat(tick(gate, 2000, 441, "p")).containsExactly(freeze("p", 2000, GateReason.PEAK_SLOT_BUSY, 0));
    }

    @Test
    void specNormalWinsOverTheLearnedProfile() {
      ProfileBook book = new ProfileBook();
      book.learn(new FinishedTaskUsage("op", mib(100), mib(200)));
      PeakGate gate = new PeakGate(NODE, count(1), book);
      gate.onSpec(batch("a"), 0);
      gate.onSpec(batch("b"), 0);
      tick(gate, 0, 600, "a");
      assertThat(tick(gate, 0, 300, "b")).isEmpty();
    }

    @Test
    void anonymousMemoryDecidesAndPageCacheIsNotAPeak() {
      PeakGate gate = gate(count(1), "a", "b", "c");
      tick(gate, 0, 600, "a");
      MemorySample cacheHeavy = new MemorySample("b", 0, mib(3000), mib(400), CgroupState.RUNNING);
      assertThat(gate.onSample(cacheHeavy)).isEmpty();
      MemorySample noAnon = new MemorySample("c", 0, mib(600), null, CgroupState.RUNNING);
      assertThat(gate.onSample(noAnon)).containsExactly(freeze("c", 0, GateReason.PEAK_SLOT_BUSY, 0));
    }

    @Test
    void specTurnedInteractiveThawsTheWaitingTaskIntoASlot() {
      PeakGate gate = gate(count(1), "a", "b");
      tick(gate, 0, 600, "a", "b");
      assertThat(gate.onSpec(interactive("b"), 100)).containsExactly(thaw("b", 100, GateReason.INTERACTIVE));
      assertThat(gate.status().holders()).isEqualTo(2);
    }

    @Test
    void tombstonedSpecThawsTheWaitingTask() {
      PeakGate gate = gate(count(1), "a", "b");
      tick(gate, 0, 600, "a", "b");
      assertThat(gate.onSpecRemoved("b", 100)).containsExactly(thaw("b", 100, GateReason.NOT_GATED));
      assertThat(gate.status().waiting()).isZero();
    }
  }

  @Nested
  class Release {

    @Test
    void goneHolderFreesItsSlotForTheQueueHead() {
      PeakGate gate = gate(count(1), "a", "b");
      tick(gate, 0, 600, "a", "b");
      assertThat(gate.onSample(MemorySample.gone("a", 1000))).as("a never had a decision: nothing to withdraw")
          .containsExactly(thaw("b", 1000, GateReason.SLOT_FREED));
    }

    @Test
    void goneWaitingTaskLeavesTheQueueAndItsFreezeIsWithdrawnNotThawed() {
      PeakGate gate = gate(count(1), "a", "b", "c");
      tick(gate, 0, 600, "a", "b", "c");
      assertThat(gate.onSample(MemorySample.gone("b", 1000))).extracting(GateDecision::action, GateDecision::reason)
          .containsExactly(tuple(GateAction.FORGET, GateReason.TASK_GONE));
      assertThat(tick(gate, 2000, 400, "a")).containsExactly(thaw("c", 2000, GateReason.SLOT_FREED));
    }

    @Test
    void silentHolderLosesItsSlotAfterTheIdleTimeout() {
      PeakGate gate = gate(count(1), "a", "b");
      tick(gate, 1000, 600, "a");
      tick(gate, 2000, 600, "b");
      for (long t = 3000; t < 61_000; t += 1000) {
        assertThat(tick(gate, t, 600, "b")).as("at %d ms", t).isEmpty();
      }
      assertThat(tick(gate, 61_000, 600, "b")).containsExactly(thaw("b", 61_000, GateReason.SLOT_FREED));
    }

    @Test
    void silentWaitingTaskIsThawedAndForgotten() {
      PeakGate gate = gate(count(1), "a", "b");
      tick(gate, 0, 600, "a", "b");
      assertThat(gate.advance(59_999)).isEmpty();
      assertThat(gate.advance(60_000)).containsExactly(thaw("b", 60_000, GateReason.IDLE_TIMEOUT));
      assertThat(gate.status().waiting()).isZero();
    }

    @Test
    void waitingTaskWhosePeakPassedUnfrozenIsThawed() {
      PeakGate gate = gate(count(1), "a", "b");
      tick(gate, 0, 600, "a", "b");
      // The freeze never took hold (a dry run, or lag) and b's peak went by: it needs no slot any more.
      assertThat(tick(gate, 1000, 410, "b")).containsExactly(thaw("b", 1000, GateReason.PEAK_PASSED));
      assertThat(tick(gate, 2000, 400, "a")).isEmpty();
    }
  }

  @Nested
  class Budget {

    private final String[] six = {"a", "b", "c", "d", "e", "f"};

    @Test
    void admitsASecondPeakWhileItFitsAndFreezesTheThird() {
      PeakGate gate = gate(budget(4500), six);
      tick(gate, 0, 400, six);
      // 1200 + 5 × 400 = 3200, then 2 × 1200 + 4 × 400 = 4000: both fit in 4500.
      assertThat(tick(gate, 1000, 500, "a", "b")).isEmpty();
      // 3 × 1200 + 3 × 400 = 4800 does not.
      assertThat(tick(gate, 1000, 500, "c")).containsExactly(freeze("c", 1000, GateReason.PEAK_OVER_BUDGET, 0));
    }

    @Test
    void headroomIsKeptFreeOfAdmittedPeaks() {
      PeakGate gate = gate(budget(4500).withHeadroomBytes(mib(600)), six);
      tick(gate, 0, 400, six);
      tick(gate, 1000, 500, "a");
      // 4000 > 4500 − 600.
      assertThat(tick(gate, 1000, 500, "b")).containsExactly(freeze("b", 1000, GateReason.PEAK_OVER_BUDGET, 0));
    }

    @Test
    void oneHolderIsAlwaysAdmittedEvenOverBudget() {
      PeakGate gate = gate(budget(1000), "a", "b");
      tick(gate, 0, 2000, "unknown");
      assertThat(tick(gate, 0, 500, "a")).isEmpty();
      assertThat(tick(gate, 0, 500, "b")).containsExactly(freeze("b", 0, GateReason.PEAK_OVER_BUDGET, 0));
    }

    @Test
    void holderAboveItsExpectedPeakCountsWithWhatItUses() {
      PeakGate gate = gate(budget(4500), six);
      tick(gate, 0, 400, "c", "d", "e", "f");
      tick(gate, 0, 2000, "a");
      // 2000 + 1200 + 4 × 400 = 4800, although the declared peaks would fit.
      assertThat(tick(gate, 0, 500, "b")).containsExactly(freeze("b", 0, GateReason.PEAK_OVER_BUDGET, 0));
    }

    @Test
    void headThatDoesNotFitBlocksSmallerPeaksBehindIt() {
      PeakGate gate = gate(budget(3000), "a", "big");
      gate.onSpec(TaskMemorySpec.batch("small", "op", mib(100), mib(200)), 0);
      gate.onSpec(TaskMemorySpec.batch("big", "op", mib(400), mib(2500)), 0);
      tick(gate, 0, 500, "a");
      assertThat(tick(gate, 1000, 500, "big")).hasSize(1);
      // 1200 + 500 + 200 fits in 3000, but big came first.
      assertThat(tick(gate, 2000, 150, "small")).containsExactly(freeze("small", 2000, GateReason.PEAK_OVER_BUDGET, 1));
      assertThat(tick(gate, 3000, 400, "a")).containsExactly(thaw("big", 3000, GateReason.SLOT_FREED));
      assertThat(gate.queuedTasks()).containsExactly("small");
    }

    @Test
    void shrinkingUsageOfOthersAdmitsTheHead() {
      PeakGate gate = gate(budget(4500), six);
      tick(gate, 0, 400, "c", "d", "e", "f");
      tick(gate, 0, 500, "a");
      tick(gate, 0, 500, "b");
      tick(gate, 0, 600, "c");
      assertThat(gate.queuedTasks()).containsExactly("c");
      // 3 × 1200 + 3 × 400 = 4800; with d at 200 MiB 4600 still does not fit, with e too 4400 does.
      assertThat(tick(gate, 1000, 200, "d")).isEmpty();
      assertThat(tick(gate, 1000, 200, "e")).containsExactly(thaw("c", 1000, GateReason.SLOT_FREED));
    }

    @Test
    void withoutAKnownMemoryTotalOnlyOneHolderAtATime() {
      PeakGate gate = gate(budget(0), "a", "b");
      tick(gate, 0, 500, "a");
      assertThat(tick(gate, 0, 500, "b")).containsExactly(freeze("b", 0, GateReason.PEAK_OVER_BUDGET, 0));
    }
  }

  @Nested
  class ModeOff {

    @Test
    void offNeverFreezes() {
      PeakGate gate = gate(count(1).withMode(GatingMode.OFF), "a", "b", "c");
      assertThat(tick(gate, 0, 1200, "a", "b", "c")).isEmpty();
      assertThat(gate.status().holders()).isZero();
    }

    @Test
    void switchingToOffThawsEveryWaitingTaskInQueueOrder() {
      PeakGate gate = gate(count(1), "a", "b", "c");
      tick(gate, 0, 600, "a", "c");
      tick(gate, 1, 600, "b");
      assertThat(gate.onConfig(count(1).withMode(GatingMode.OFF), 10))
          .containsExactly(thaw("c", 10, GateReason.GATING_OFF), thaw("b", 10, GateReason.GATING_OFF));
      assertThat(gate.status()).isEqualTo(new GateStatus(0, 0, 0, false, 0));
      assertThat(gate.advance(500_000)).isEmpty();
    }
  }

  @Nested
  class LeasesAndTime {

    @Test
    void waitingTaskIsRenewedBeforeHalfItsLeaseRunsOut() {
      PeakGate gate = gate(count(1), "a", "b");
      List<Long> freezes = new ArrayList<>();
      long t = 0;
      long[] gapsMs = {7_000, 29_000, 1_000, 13_000, 30_000, 2_500};
      for (int i = 0; t < 1_000_000; i++) {
        for (GateDecision d : tick(gate, t, 600, "a", "b")) {
          assertThat(d.action()).isEqualTo(GateAction.FREEZE);
          assertThat(d.leaseMs()).isEqualTo(180_000L);
          assertThat(d.queuePosition()).isZero();
          freezes.add(d.tsMs());
        }
        t += gapsMs[i % gapsMs.length];
      }
      assertThat(freezes).hasSizeGreaterThan(10).startsWith(0L);
      for (int i = 1; i < freezes.size(); i++) {
        assertThat(freezes.get(i) - freezes.get(i - 1)).isBetween(60_000L, 90_000L);
      }
    }

    @Test
    void renewalsCarryTheCurrentQueuePosition() {
      PeakGate gate = gate(count(1), "a", "b", "c");
      tick(gate, 0, 600, "a", "b");
      tick(gate, 10_000, 600, "c");
      tick(gate, 20_000, 600, "a", "b", "c");
      List<GateDecision> renewals = gate.advance(60_000);
      assertThat(renewals).containsExactly(freeze("b", 60_000, GateReason.LEASE_RENEWAL, 0));
      assertThat(gate.advance(70_000)).containsExactly(freeze("c", 70_000, GateReason.LEASE_RENEWAL, 1));
    }

    @Test
    void headWaitGrowsWithStreamTimeAndRaisesTheAlert() {
      PeakGate gate = gate(count(1).withIdleTimeoutMs(10_000_000), "a", "b");
      tick(gate, 5_000, 600, "a", "b");
      assertThat(gate.status().headWaitMs()).isZero();
      gate.advance(65_000);
      assertThat(gate.status()).isEqualTo(new GateStatus(1, 1, 60_000, false, 0));
      gate.advance(605_001);
      assertThat(gate.status().waitAlert()).isTrue();
      tick(gate, 605_002, 400, "a");
      assertThat(gate.status()).isEqualTo(new GateStatus(1, 0, 0, false, 0));
    }

    @Test
    void headWaitIsTheLongestWaitersWhateverTheTaskIdsOrder() {
      PeakGate gate = gate(count(1).withIdleTimeoutMs(10_000_000), "a", "b", "z");
      tick(gate, 0, 600, "a");
      tick(gate, 1_000, 600, "z"); // waits first
      tick(gate, 4_000, 600, "b"); // sorts before z, waits behind it
      gate.advance(10_000);
      assertThat(gate.queuedTasks()).containsExactly("z", "b");
      assertThat(gate.status()).isEqualTo(new GateStatus(1, 2, 9_000, false, 0));
    }

    @Test
    void lateSampleIsDroppedAndCounted() {
      PeakGate gate = gate(count(1), "a", "b");
      tick(gate, 2000, 600, "a", "b");
      assertThat(tick(gate, 1000, 400, "a")).isEmpty();
      assertThat(gate.status()).isEqualTo(new GateStatus(1, 1, 0, false, 1));
    }
  }

  @Test
  void snapshotAndRestoreContinueWithIdenticalDecisions() {
    ProfileBook book = new ProfileBook();
    book.learn(new FinishedTaskUsage("etl", mib(400), mib(1200)));
    PeakGate straight = new PeakGate(NODE, budget(4500), book);
    PeakGate first = new PeakGate(NODE, budget(4500), book);
    List<List<GateDecision>> a = new ArrayList<>();
    List<List<GateDecision>> b = new ArrayList<>();
    PeakGate[] second = new PeakGate[1];
    for (int step = 0; step < 400; step++) {
      String task = "t" + (step % 5);
      long usage = 380 + (step * 37L % 7) * 130;
      MemorySample s = step % 97 == 96 ? MemorySample.gone(task, step * 1000L) : sample(task, step * 1000L, usage);
      if (step == 0) {
        for (int i = 0; i < 5; i++) {
          TaskMemorySpec spec = i == 4 ? TaskMemorySpec.profiled("t4", "etl") : batch("t" + i);
          straight.onSpec(spec, 0);
          first.onSpec(spec, 0);
        }
      }
      a.add(straight.onSample(s));
      if (step < 200) {
        b.add(first.onSample(s));
      } else {
        if (step == 200) {
          second[0] = PeakGate.restore(first.snapshot(), book);
          assertThat(second[0].snapshot()).isEqualTo(first.snapshot());
        }
        b.add(second[0].onSample(s));
      }
    }
    assertThat(b).isEqualTo(a);
    assertThat(a.stream().mapToInt(List::size).sum()).isGreaterThan(10);
  }

  @Test
  void configRejectsAReleaseRatioAboveTheThreshold() {
    assertThatThrownBy(() -> new PeakGateConfig(GatingMode.COUNT, 1.1, 1.2, 1, 0, 0, 180_000, 60_000, 600_000))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
