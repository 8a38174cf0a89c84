package io.quotaflow.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.streams.engine.memory.CgroupState;
import io.quotaflow.streams.engine.memory.GatingMode;
import io.quotaflow.streams.engine.memory.MemorySample;
import io.quotaflow.streams.engine.memory.MemoryProfile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MemoryExperimentTest {

  private final MemoryExperiment experiment = MemoryExperiment.seed004();
  private final TaskShape shape = TaskShape.seed004();

  @Test
  void peakRampsLinearlyFromBaselineToTheTopAndBackOverTwentyTicks() {
    assertThat(shape.rampMib(0)).isZero();
    assertThat(shape.rampMib(1)).isEqualTo(80);
    assertThat(shape.rampMib(5)).isEqualTo(400);
    assertThat(shape.rampMib(10)).isEqualTo(800);
    assertThat(shape.rampMib(15)).isEqualTo(400);
    assertThat(shape.rampMib(19)).isEqualTo(80);
    assertThat(shape.rampMib(20)).isZero();
    assertThat(shape.peakStartProbability(0)).isEqualTo(0.02);
    assertThat(shape.peakStartProbability(125)).isEqualTo(0.035, org.assertj.core.data.Offset.offset(1e-12));
  }

  @Test
  void runningTaskFinishesAfterTenPeaks() {
    SimulatedTask task = new SimulatedTask("t", shape, new SplittableRandom(7));
    int peaksStarted = 0;
    long before = task.memoryMib();
    int tick = 0;
    for (; !task.finished(); tick++) {
      assertThat(task.memoryMib()).isBetween(380L, 1220L);
      task.step(tick);
      if (before <= 420 && task.memoryMib() > 450) {
        peaksStarted++;
      }
      before = task.memoryMib();
    }
    assertThat(peaksStarted).isEqualTo(10);
    assertThat(task.finishedAtTick()).isEqualTo(tick).isGreaterThanOrEqualTo(10 * 20);
  }

  @Test
  void frozenTaskMakesNoProgressAndKeepsItsMemory() {
    SimulatedTask task = new SimulatedTask("t", shape, new SplittableRandom(3));
    int tick = 0;
    while (task.memoryMib() < 700) {
      task.step(tick++);
    }
    long held = task.memoryMib();
    task.setFrozen(true);
    for (int i = 0; i < 500; i++) {
      task.step(tick++);
      assertThat(task.memoryMib()).isEqualTo(held);
    }
    assertThat(task.finished()).isFalse();
    task.setFrozen(false);
    task.step(tick);
    assertThat(task.memoryMib()).isNotEqualTo(held);
  }

  @Test
  void sameSeedGivesTheSameRunAndAnotherSeedAnother() {
    TaskKnowledge declared = TaskKnowledge.declared(shape);
    MemoryRun a = experiment.run(GatingMode.COUNT, 1, 4, declared);
    MemoryRun b = experiment.run(GatingMode.COUNT, 1, 4, declared);
    MemoryRun c = experiment.run(GatingMode.COUNT, 1, 5, declared);
    assertThat(b.nodeMemoryMib()).isEqualTo(a.nodeMemoryMib());
    assertThat(b.finishTicks()).isEqualTo(a.finishTicks());
    assertThat(c.nodeMemoryMib()).isNotEqualTo(a.nodeMemoryMib());
  }

  @Test
  void countWithInstantControlKeepsTheSeedsBound() {
    // One holder at the top of its peak plus five tasks frozen at their first sample above 1.1 × 400 MiB,
    // which is at most one ramp step (80 MiB) and the noise (20 MiB) above the baseline.
    long bound = 1220 + 5 * 500;
    TaskKnowledge declared = TaskKnowledge.declared(shape);
    for (long seed = 1; seed <= 5; seed++) {
      MemoryRun count = experiment.run(GatingMode.COUNT, 0, seed, declared);
      MemoryRun off = experiment.run(GatingMode.OFF, 0, seed, declared);
      assertThat(count.maxMib()).isLessThanOrEqualTo(bound);
      assertThat(off.maxMib()).isGreaterThan(bound);
      assertThat(count.freezes()).isPositive();
      assertThat(off.freezes()).isZero();
    }
  }

  @Test
  void atInstantControlNoFrozenTaskEverGrows() {
    List<MemorySample> samples = new ArrayList<>();
    experiment.run(GatingMode.COUNT, 0, 2, TaskKnowledge.declared(shape), samples::add);
    Map<String, MemorySample> previous = new HashMap<>();
    int frozenSamples = 0;
    for (MemorySample s : samples) {
      MemorySample before = previous.put(s.task(), s);
      // A sample that finds the task frozen means it was frozen through the tick since the previous sample.
      if (before != null && s.state() == CgroupState.FROZEN) {
        assertThat(s.usageBytes()).isEqualTo(before.usageBytes());
        frozenSamples++;
      }
    }
    assertThat(frozenSamples).isGreaterThan(100);
  }

  @Test
  void learnedProfileHasTheMeanAsNormalAndTheMaxAsPeak() {
    MemoryProfile p = experiment.learnProfiles(List.of(1001L, 1002L)).profile(TaskKnowledge.OPERATION).orElseThrow();
    assertThat(p.runs()).isEqualTo(12);
    // Peaks take a good share of a task's time, so the mean sits well above the 400 MiB baseline.
    assertThat(p.normalBytes() / MemoryExperiment.MIB).isBetween(450L, 600L);
    assertThat(p.peakBytes() / MemoryExperiment.MIB).isBetween(1180L, 1220L);
  }

  @Test
  void controlDelayPostponesFreezesSoFrozenTasksHoldMoreMemory() {
    TaskKnowledge declared = TaskKnowledge.declared(shape);
    List<MemorySample> instant = new ArrayList<>();
    List<MemorySample> lagging = new ArrayList<>();
    experiment.run(GatingMode.COUNT, 0, 3, declared, instant::add);
    experiment.run(GatingMode.COUNT, 2, 3, declared, lagging::add);
    assertThat(maxFrozenUsageMib(lagging)).isGreaterThan(maxFrozenUsageMib(instant));
  }

  @Test
  void runningInReadingPeriodsIsTheDiscreteModelWithLinearMovesBetweenTicks() {
    SimulatedTask whole = new SimulatedTask("t", shape, new SplittableRandom(11));
    SimulatedTask parts = new SimulatedTask("t", shape, new SplittableRandom(11));
    int tick = 0;
    for (; !whole.finished(); tick++) {
      long from = parts.memoryMib();
      whole.step(tick);
      for (int part = 0; part < 10; part++) {
        parts.run(tick * 1000L + part * 100L, 100);
        if (part == 4 && !parts.finished()) {
          // Half-way through the tick, half-way between the two samples (rounded to whole MiB).
          assertThat(parts.memoryMib()).isBetween(Math.floorDiv(from + whole.memoryMib(), 2),
              Math.floorDiv(from + whole.memoryMib() + 1, 2));
        }
      }
      assertThat(parts.memoryMib()).isEqualTo(whole.memoryMib());
    }
    assertThat(parts.finishedAtTick()).isEqualTo(whole.finishedAtTick()).isEqualTo(tick);
  }

  @Test
  void aTaskFrozenPartWayThroughAStepStaysThereAndFinishesTheStepOnceThawed() {
    SimulatedTask reference = new SimulatedTask("t", shape, new SplittableRandom(3));
    SimulatedTask task = new SimulatedTask("t", shape, new SplittableRandom(3));
    int tick = 0;
    while (reference.memoryMib() < 700) {
      reference.step(tick);
      task.step(tick);
      tick++;
    }
    long start = task.memoryMib();
    task.run(tick * 1000L, 300);
    long held = task.memoryMib();
    assertThat(held).isGreaterThan(start); // inside a ramp, 30 % of a step up
    task.setFrozen(true);
    task.run(tick * 1000L + 300, 5000);
    assertThat(task.memoryMib()).isEqualTo(held);
    task.setFrozen(false);
    task.run(tick * 1000L + 5300, 700);
    reference.step(tick);
    assertThat(task.memoryMib()).isEqualTo(reference.memoryMib());
  }

  @Test
  void theReflexStopsATaskWithinOneReadingOfItsCrossingWellBeforeTheNextRampStep() {
    // Declared normal 400 MiB: threshold 440 MiB. One 100 ms reading period moves a task at most 8 MiB of ramp and
    // 4 MiB of noise, so a task the reflex stops is frozen at most 13 MiB (with rounding) above its threshold; the
    // next ramp step would be 80 MiB. Without the reflex, a delay of 1 tick lets it run at least one whole step.
    TaskKnowledge declared = TaskKnowledge.declared(shape);
    int stoppedBetweenSamples = 0;
    for (long seed = 1; seed <= 2; seed++) {
      List<MemorySample> samples = new ArrayList<>();
      MemoryRun run = experiment.run(GatingMode.COUNT, 1, seed, declared, MemoryExperiment.Reflex.at(10), samples::add);
      assertThat(run.reflexFreezes()).isPositive();
      assertThat(run.reflexLeasesRunOut()).isZero(); // the gate answers within a tick, long before the 10 s lease
      Map<String, MemorySample> previous = new HashMap<>();
      for (MemorySample s : samples) {
        MemorySample before = previous.put(s.task(), s);
        if (before != null && before.state() == CgroupState.RUNNING && before.usageBytes() <= mib(440)
            && s.state() == CgroupState.FROZEN) {
          assertThat(s.usageBytes()).isGreaterThan(mib(440)).isLessThanOrEqualTo(mib(453));
          stoppedBetweenSamples++;
        }
      }
      List<MemorySample> without = new ArrayList<>();
      experiment.run(GatingMode.COUNT, 1, seed, declared, without::add);
      Map<String, MemorySample> last = new HashMap<>();
      for (MemorySample s : without) {
        MemorySample before = last.put(s.task(), s);
        assertThat(before != null && before.state() == CgroupState.RUNNING && before.usageBytes() <= mib(440)
            && s.state() == CgroupState.FROZEN).isFalse();
      }
    }
    System.out.printf("reflex at 10 Hz, delay 1, seeds 1-2: %d tasks stopped between two samples%n",
        stoppedBetweenSamples);
    assertThat(stoppedBetweenSamples).isGreaterThan(50);
  }

  @Test
  void aReflexFreezeTheGateDoesNotAnswerWithinTheReflexLeaseIsThawedByIt() {
    // Decisions take 2 s to arrive, the reflex lease is 0.5 s: every reflex freeze runs out before its answer.
    TaskKnowledge declared = TaskKnowledge.declared(shape);
    MemoryRun shortLease =
        experiment.run(GatingMode.COUNT, 2, 1, declared, new MemoryExperiment.Reflex(10, 0, 500));
    MemoryRun longLease = experiment.run(GatingMode.COUNT, 2, 1, declared, new MemoryExperiment.Reflex(10, 0, 10_000));
    assertThat(shortLease.reflexFreezes()).isPositive();
    assertThat(shortLease.reflexLeasesRunOut()).isEqualTo(shortLease.reflexFreezes());
    assertThat(longLease.reflexLeasesRunOut()).isZero();
  }

  @Test
  void underOffTheReflexNeverActsAndTheRunIsTheOneWithoutIt() {
    TaskKnowledge declared = TaskKnowledge.declared(shape);
    MemoryRun with = experiment.run(GatingMode.OFF, 1, 6, declared, MemoryExperiment.Reflex.at(10));
    MemoryRun without = experiment.run(GatingMode.OFF, 1, 6, declared);
    assertThat(with.reflexFreezes()).isZero();
    assertThat(with.finishTicks()).isEqualTo(without.finishTicks());
    // Memory moves linearly between samples, so the highest point between them is at a sample.
    assertThat(with.maxMib()).isEqualTo(without.maxMib());
  }

  @Test
  void reflexRatesMustDivideASecond() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> MemoryExperiment.Reflex.at(7))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(MemoryExperiment.Reflex.at(20).periodMs()).isEqualTo(50);
  }

  private static long mib(long mib) {
    return mib * MemoryExperiment.MIB;
  }

  private static long maxFrozenUsageMib(List<MemorySample> samples) {
    return samples.stream().filter(s -> s.state() == CgroupState.FROZEN)
        .mapToLong(s -> s.usageBytes() / MemoryExperiment.MIB).max().orElse(0);
  }
}
