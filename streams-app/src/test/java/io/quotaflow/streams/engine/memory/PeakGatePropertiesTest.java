package io.quotaflow.streams.engine.memory;

import static io.quotaflow.streams.engine.memory.GateTesting.NODE;
import static io.quotaflow.streams.engine.memory.GateTesting.mib;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The gate's promises under arbitrary sample sequences. Every check reads the gate from outside, through the
 * decisions it emits, except BUDGET's, which needs to know who holds a slot and reads it from the snapshot.
 */
class PeakGatePropertiesTest {

  /** Idle timeouts are a separate rule, tested on their own; here no task ever goes silent long enough. */
  private static final long NEVER_IDLE_MS = 1_000_000_000_000L;

  record TaskDef(long normalMib, long peakMib, boolean interactive) {}

  /** One sample: usage as a percentage of the task's normal, or the task's GONE sample. */
  record Step(int task, int usagePercent, boolean gone, int advanceMs) {}

  @Provide
  Arbitrary<List<TaskDef>> tasks() {
    return Combinators.combine(
            Arbitraries.longs().between(100, 1000),
            Arbitraries.integers().between(120, 300),
            Arbitraries.integers().between(0, 4))
        .as((normal, peakPercent, kind) -> new TaskDef(normal, normal * peakPercent / 100, kind == 0))
        .list()
        .ofMinSize(2)
        .ofMaxSize(6);
  }

  @Provide
  Arbitrary<List<TaskDef>> batchTasks() {
    return tasks().map(defs -> defs.stream().map(d -> new TaskDef(d.normalMib(), d.peakMib(), false)).toList());
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    return Combinators.combine(
            Arbitraries.integers().between(0, 5),
            Arbitraries.integers().between(50, 250),
            Arbitraries.integers().between(0, 19),
            Arbitraries.integers().between(0, 3000))
        .as((task, percent, goneDraw, advance) -> new Step(task, percent, goneDraw == 0, advance))
        .list()
        .ofMinSize(1)
        .ofMaxSize(300);
  }

  @Property(tries = 300)
  void countNeverLetsMoreThanMaxConcurrentPeaksRunUnfrozen(
      @ForAll("tasks") List<TaskDef> defs,
      @ForAll("steps") List<Step> steps,
      @ForAll @IntRange(min = 1, max = 3) int slots) {
    PeakGateConfig config = GateTesting.count(slots).withIdleTimeoutMs(NEVER_IDLE_MS);
    Run run = new Run(config, defs);
    for (Step step : steps) {
      run.apply(step);
      long runningPeaks = run.live.keySet().stream()
          .filter(task -> !run.def(task).interactive() && !run.frozen.contains(task))
          .filter(task -> run.live.get(task) > config.peakThresholdRatio() * mib(run.def(task).normalMib()))
          .count();
      assertThat(runningPeaks).isLessThanOrEqualTo(slots);
    }
  }

  @Property(tries = 300)
  void decisionsAlternateFreezeAndThawPerTaskAndNeverTouchInteractiveTasks(
      @ForAll("tasks") List<TaskDef> defs, @ForAll("steps") List<Step> steps, @ForAll boolean budget) {
    PeakGateConfig config = (budget ? GateTesting.budget(3000) : GateTesting.count(1)).withIdleTimeoutMs(NEVER_IDLE_MS);
    Run run = new Run(config, defs);
    Map<String, Boolean> frozen = new HashMap<>();
    for (Step step : steps) {
      List<GateDecision> out = run.apply(step);
      if (step.gone()) {
        // The task's cgroup went away with whatever freezer state it had.
        frozen.remove("t" + (step.task() % defs.size()));
      }
      for (GateDecision d : out) {
        if (d.action() == GateAction.FORGET) {
          assertThat(step.gone()).as("only a GONE task is forgotten: %s", d).isTrue();
          continue;
        }
        assertThat(run.def(d.task()).interactive()).isFalse();
        boolean wasFrozen = frozen.getOrDefault(d.task(), false);
        if (d.action() == GateAction.THAW) {
          assertThat(wasFrozen).as("THAW only of a frozen task: %s", d).isTrue();
        } else {
          assertThat(d.reason() == GateReason.LEASE_RENEWAL).as("renewal only while frozen: %s", d)
              .isEqualTo(wasFrozen);
          assertThat(d.leaseMs()).isEqualTo(config.freezeLeaseMs());
        }
        frozen.put(d.task(), d.action() == GateAction.FREEZE);
      }
    }
  }

  @Property(tries = 300)
  void budgetNeverAdmitsBeyondTheBudgetExceptTheSingleForcedHolder(
      @ForAll("batchTasks") List<TaskDef> defs,
      @ForAll("steps") List<Step> steps,
      @ForAll @IntRange(min = 1000, max = 6000) int totalMib,
      @ForAll @IntRange(min = 0, max = 500) int headroomMib) {
    PeakGateConfig config =
        GateTesting.budget(totalMib).withHeadroomBytes(mib(headroomMib)).withIdleTimeoutMs(NEVER_IDLE_MS);
    Run run = new Run(config, defs);
    Set<String> holdersBefore = Set.of();
    for (Step step : steps) {
      run.apply(step);
      Set<String> holders = run.gate.snapshot().tasks().stream()
          .filter(t -> t.role() == GateRole.HOLDING)
          .map(TaskGateState::task)
          .collect(Collectors.toSet());
      boolean admitted = !holdersBefore.containsAll(holders);
      if (admitted && holders.size() > 1) {
        long committed = 0;
        for (Map.Entry<String, Long> e : run.live.entrySet()) {
          long peak = mib(run.def(e.getKey()).peakMib());
          committed += holders.contains(e.getKey()) ? Math.max(peak, e.getValue()) : e.getValue();
        }
        assertThat(committed).isLessThanOrEqualTo(config.budgetBytes());
      }
      holdersBefore = holders;
    }
  }

  @Property(tries = 200)
  void restoringASnapshotAnywhereChangesNoDecision(
      @ForAll("tasks") List<TaskDef> defs,
      @ForAll("steps") List<Step> steps,
      @ForAll @IntRange(min = 0, max = 300) int cut,
      @ForAll boolean budget) {
    PeakGateConfig config = budget ? GateTesting.budget(2500) : GateTesting.count(1);
    Run straight = new Run(config, defs);
    Run interrupted = new Run(config, defs);
    for (int i = 0; i < steps.size(); i++) {
      if (i == cut) {
        interrupted.gate = PeakGate.restore(interrupted.gate.snapshot(), ProfileLookup.NONE);
      }
      straight.apply(steps.get(i));
      interrupted.apply(steps.get(i));
    }
    assertThat(interrupted.decisions).isEqualTo(straight.decisions);
    assertThat(interrupted.gate.snapshot()).isEqualTo(straight.gate.snapshot());
  }

  /** A processor that writes back only the changed tasks keeps exactly the gate's state, task for task. */
  @Property(tries = 200)
  void theChangesDrainedAfterEveryInputAddUpToTheSnapshot(
      @ForAll("tasks") List<TaskDef> defs,
      @ForAll("steps") List<Step> steps,
      @ForAll boolean budget) {
    Run run = new Run(budget ? GateTesting.budget(2500) : GateTesting.count(1), defs);
    Map<String, TaskGateState> stored = new java.util.TreeMap<>();
    for (Step step : steps) {
      PeakGate.Changes changes = run.gate.drainChanges();
      changes.changed().forEach(t -> stored.put(t.task(), t));
      changes.removed().forEach(stored::remove);
      assertThat(List.copyOf(stored.values())).isEqualTo(run.gate.snapshot().tasks());
      run.apply(step);
    }
  }

  /** One input of any kind the gate takes: which kind, and draws it reads as it needs them. */
  record Event(int kind, int task, int a, int b, int advanceMs) {}

  @Provide
  Arbitrary<List<Event>> events() {
    return Combinators.combine(
            Arbitraries.integers().between(0, 99),
            Arbitraries.integers().between(0, 4),
            Arbitraries.integers().between(0, 300),
            Arbitraries.integers().between(0, 9),
            Arbitraries.integers().between(0, 4000))
        .as(Event::new)
        .list()
        .ofMinSize(1)
        .ofMaxSize(200);
  }

  /**
   * What lets the stream processor skip building a node's table: while the stamp stands still the table decides
   * the same, whatever the inputs (samples growing a peak of last resort, GONE, specs with and without a normal or
   * peak, profiles learned and withdrawn, settings, idle timeouts, the punctuator, reflex freezes). BUDGET is
   * drawn too, but its tables move with usage alone and are only checked again once out of it.
   */
  @Property(tries = 500)
  void anUnchangedTableStampMeansATableWithTheSameDecisions(@ForAll("events") List<Event> events) {
    Map<String, MemoryProfile> learned = new HashMap<>();
    PeakGate gate = new PeakGate(NODE, GateTesting.count(1).withIdleTimeoutMs(6_000),
        operation -> Optional.ofNullable(learned.get(operation)));
    long tsMs = 0;
    GateTable before = gate.table();
    long stampBefore = gate.tableStamp();
    for (Event e : events) {
      tsMs += e.advanceMs();
      feed(gate, e, tsMs, learned);
      GateTable table = gate.table();
      if (gate.tableStamp() == stampBefore && gate.config().mode() != GatingMode.BUDGET) {
        assertThat(table.sameDecisionsAs(before)).as("after %s, stamp %d: %s, before %s", e, stampBefore, table, before)
            .isTrue();
      }
      before = table;
      stampBefore = gate.tableStamp();
    }
  }

  /** Hands {@code e} to the gate as the input of its kind; a profile event changes {@code learned} first. */
  private static List<GateDecision> feed(PeakGate gate, Event e, long tsMs, Map<String, MemoryProfile> learned) {
    String task = "t" + e.task();
    int kind = e.kind();
    if (kind < 55) {
      return gate.onSample(MemorySample.running(task, tsMs, mib(100 + 4L * e.a())));
    } else if (kind < 60) {
      return gate.onSample(MemorySample.gone(task, tsMs));
    } else if (kind < 72) {
      // Normal and peak declared, normal only, or neither (the profile decides); one in four interactive.
      Long normal = e.b() < 7 ? mib(300 + e.a()) : null;
      Long peak = e.b() < 4 ? mib(900 + e.a()) : null;
      return gate.onSpec(new TaskMemorySpec(task, "op" + (e.a() % 2), normal, peak, e.b() % 4 == 0), tsMs);
    } else if (kind < 75) {
      return gate.onSpecRemoved(task, tsMs);
    } else if (kind < 81) {
      String operation = "op" + (e.a() % 2);
      if (e.b() == 0) {
        learned.remove(operation);
      } else {
        learned.put(operation, new MemoryProfile(mib(250 + e.a()), mib(700 + 10L * e.b()), 1));
      }
      gate.profilesChanged();
      return List.of();
    } else if (kind < 85) {
      PeakGateConfig config = switch (e.b() % 5) {
        case 0 -> GateTesting.count(1);
        case 1 -> GateTesting.count(2);
        case 2 -> GateTesting.count(3);
        case 3 -> GateTesting.count(1).withMode(GatingMode.OFF);
        default -> GateTesting.budget(1500 + e.a());
      };
      // Two timeouts: a shorter one may time out at once tasks the longer one kept.
      return gate.onConfig(config.withIdleTimeoutMs(e.a() % 2 == 0 ? 6_000 : 2_000), tsMs);
    } else if (kind < 93) {
      return gate.advance(tsMs);
    } else {
      return gate.onReflexFreeze(task, tsMs, mib(100 + 4L * e.a()));
    }
  }

  /**
   * A gate restored before every input looks at every task for a timeout on each one; the gate run straight skips
   * that while no task can be due. Both must decide the same, whatever the inputs and timeouts.
   */
  @Property(tries = 300)
  void skippingTheIdleScanWhileNoTaskCanBeDueChangesNoDecision(@ForAll("events") List<Event> events) {
    Map<String, MemoryProfile> learned = new HashMap<>();
    ProfileLookup lookup = operation -> Optional.ofNullable(learned.get(operation));
    PeakGateConfig config = GateTesting.count(1).withIdleTimeoutMs(6_000);
    PeakGate straight = new PeakGate(NODE, config, lookup);
    PeakGate restored = new PeakGate(NODE, config, lookup);
    long tsMs = 0;
    for (Event e : events) {
      tsMs += e.advanceMs();
      restored = PeakGate.restore(restored.snapshot(), lookup);
      List<GateDecision> expected = feed(restored, e, tsMs, learned);
      assertThat(feed(straight, e, tsMs, learned)).as("after %s", e).isEqualTo(expected);
    }
    assertThat(straight.snapshot()).isEqualTo(restored.snapshot());
  }

  /**
   * Tasks whose peaks end by themselves while they run and who make no progress while frozen (they keep their
   * memory): every task frozen is thawed, in the order it was frozen (freeze time, then task id).
   */
  @Property(tries = 300)
  void withHoldersThatFinishEveryFrozenTaskIsThawedInFifoOrder(
      @ForAll("schedules") List<List<Integer>> schedules,
      @ForAll @IntRange(min = 500, max = 2000) int peakMib,
      @ForAll @IntRange(min = 1, max = 3) int slots,
      @ForAll boolean budget) {
    PeakGateConfig config = budget ? GateTesting.budget(2000) : GateTesting.count(slots);
    PeakGate gate = new PeakGate(NODE, config, ProfileLookup.NONE);
    int n = schedules.size();
    for (int i = 0; i < n; i++) {
      // Peaks differ per task so that BUDGET sometimes fits two and sometimes only the forced one.
      gate.onSpec(TaskMemorySpec.batch("t" + i, "op", mib(400), mib(peakMib + 150L * i)), 0);
    }
    int[] position = new int[n];
    boolean[] frozen = new boolean[n];
    boolean[] done = new boolean[n];
    List<long[]> freezes = new ArrayList<>();
    List<Integer> thaws = new ArrayList<>();
    int finished = 0;
    for (long round = 0; finished < n; round++) {
      assertThat(round).as("every task finishes").isLessThan(10_000);
      long tsMs = round * 1000;
      for (int i = 0; i < n; i++) {
        if (done[i]) {
          continue;
        }
        if (!frozen[i]) {
          position[i]++;
        }
        List<GateDecision> decisions;
        if (position[i] >= schedules.get(i).size()) {
          done[i] = true;
          finished++;
          decisions = gate.onSample(MemorySample.gone("t" + i, tsMs));
        } else {
          decisions = gate.onSample(MemorySample.running("t" + i, tsMs, mib(schedules.get(i).get(position[i]))));
        }
        for (GateDecision d : decisions) {
          int task = Integer.parseInt(d.task().substring(1));
          if (d.action() == GateAction.FREEZE && d.reason() != GateReason.LEASE_RENEWAL) {
            freezes.add(new long[] {d.tsMs(), task});
            frozen[task] = true;
          } else if (d.action() == GateAction.THAW) {
            assertThat(d.reason()).isEqualTo(GateReason.SLOT_FREED);
            thaws.add(task);
            frozen[task] = false;
          }
        }
      }
    }
    List<Integer> fifo = freezes.stream()
        .sorted(Comparator.<long[]>comparingLong(f -> f[0]).thenComparing(f -> "t" + f[1]))
        .map(f -> (int) f[1])
        .toList();
    assertThat(thaws).isEqualTo(fifo);
  }

  /** Per task: usage in MiB per step of progress, baseline 400 and peaks of one level above the threshold. */
  @Provide
  Arbitrary<List<List<Integer>>> schedules() {
    Arbitrary<List<Integer>> phase = Combinators.combine(
            Arbitraries.integers().between(0, 4), Arbitraries.integers().between(1, 6),
            Arbitraries.integers().between(450, 1500))
        .as((baseline, peak, level) -> {
          List<Integer> usage = new ArrayList<>();
          for (int i = 0; i < baseline; i++) {
            usage.add(400);
          }
          for (int i = 0; i < peak; i++) {
            usage.add(level);
          }
          usage.add(400);
          return usage;
        });
    return phase.list().ofMinSize(1).ofMaxSize(3)
        .map(phases -> phases.stream().flatMap(List::stream).toList())
        .list().ofMinSize(2).ofMaxSize(7);
  }

  /** Feeds steps to a gate and keeps, from its decisions alone, which tasks are frozen and what live tasks use. */
  static final class Run {
    final List<TaskDef> defs;
    PeakGate gate;
    final Map<String, Long> live = new HashMap<>();
    final Set<String> frozen = new HashSet<>();
    final List<GateDecision> decisions = new ArrayList<>();
    long tsMs;

    Run(PeakGateConfig config, List<TaskDef> defs) {
      this.defs = defs;
      this.gate = new PeakGate(NODE, config, ProfileLookup.NONE);
      for (int i = 0; i < defs.size(); i++) {
        TaskDef d = defs.get(i);
        gate.onSpec(new TaskMemorySpec("t" + i, "op", mib(d.normalMib()), mib(d.peakMib()), d.interactive()), 0);
      }
    }

    TaskDef def(String task) {
      return defs.get(Integer.parseInt(task.substring(1)));
    }

    List<GateDecision> apply(Step step) {
      tsMs += step.advanceMs();
      String task = "t" + (step.task() % defs.size());
      List<GateDecision> out;
      if (step.gone()) {
        out = gate.onSample(MemorySample.gone(task, tsMs));
        live.remove(task);
        frozen.remove(task);
      } else {
        long usage = mib(def(task).normalMib()) * step.usagePercent() / 100;
        out = gate.onSample(MemorySample.running(task, tsMs, usage));
        live.put(task, usage);
      }
      for (GateDecision d : out) {
        if (d.action() == GateAction.FREEZE) {
          frozen.add(d.task());
        } else {
          frozen.remove(d.task());
        }
      }
      decisions.addAll(out);
      return out;
    }
  }
}
