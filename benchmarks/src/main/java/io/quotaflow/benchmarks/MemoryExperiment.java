package io.quotaflow.benchmarks;

import io.quotaflow.streams.engine.memory.CgroupState;
import io.quotaflow.streams.engine.memory.GateAction;
import io.quotaflow.streams.engine.memory.GateDecision;
import io.quotaflow.streams.engine.memory.GateReason;
import io.quotaflow.streams.engine.memory.GateRole;
import io.quotaflow.streams.engine.memory.GateTable;
import io.quotaflow.streams.engine.memory.GatingMode;
import io.quotaflow.streams.engine.memory.MemorySample;
import io.quotaflow.streams.engine.memory.PeakGate;
import io.quotaflow.streams.engine.memory.PeakGateConfig;
import io.quotaflow.streams.engine.memory.ProfileBook;
import io.quotaflow.streams.engine.memory.UsageRecorder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Seed 004's experiment: a node running a few poorly behaved tasks, sampled once a tick, with the real
 * {@link PeakGate} deciding and its decisions taking effect {@code delayTicks} ticks after the sample they answer;
 * optionally with the enforcer's reflex ({@link Reflex}) freezing between samples.
 *
 * @param tasks tasks on the node, all started at tick 0
 * @param budgetMib node memory the tasks should fit in (the gate's memory total)
 * @param maxConcurrentPeaks COUNT's slots
 * @param reserveFraction BUDGET's reserve fraction ({@link PeakGateConfig#budgetReserveFraction()}); 0 is DESIGN §4
 */
record MemoryExperiment(
    int tasks, TaskShape shape, long budgetMib, long headroomMib, int maxConcurrentPeaks, double reserveFraction) {

  static final long MIB = 1L << 20;
  static final long TICK_MS = 1000;
  static final String NODE = "sim-node";
  /** Far beyond any run here; reaching it means a task never finished, which would be a bug worth stopping for. */
  private static final int MAX_TICKS = 1_000_000;

  static MemoryExperiment seed004() {
    return new MemoryExperiment(6, TaskShape.seed004(), 4500, 0, 1, 0);
  }

  /** The same node and tasks under another BUDGET admission rule. */
  MemoryExperiment withRule(double newReserveFraction, long newHeadroomMib) {
    return new MemoryExperiment(tasks, shape, budgetMib, newHeadroomMib, maxConcurrentPeaks, newReserveFraction);
  }

  static long bytes(long mib) {
    return mib * MIB;
  }

  PeakGateConfig gateConfig(GatingMode mode) {
    return new PeakGateConfig(mode, 1.1, 1.05, maxConcurrentPeaks, bytes(budgetMib), bytes(headroomMib),
        180_000, 60_000, 600_000, reserveFraction);
  }

  MemoryRun run(GatingMode mode, int delayTicks, long seed, TaskKnowledge knowledge) {
    return run(mode, delayTicks, seed, knowledge, sample -> {});
  }

  /**
   * Learns the tasks' profile the way the streams app would: from the samples of finished tasks of earlier runs
   * (here ungated runs with other seeds), each folded into the operation's profile when its GONE sample comes.
   */
  ProfileBook learnProfiles(List<Long> trainingSeeds) {
    ProfileBook book = new ProfileBook();
    UsageRecorder recorder = new UsageRecorder();
    for (long seed : trainingSeeds) {
      run(GatingMode.OFF, 0, seed, TaskKnowledge.declared(shape),
          sample -> recorder.record(sample, TaskKnowledge.OPERATION).ifPresent(book::learn));
    }
    return book;
  }

  MemoryRun run(GatingMode mode, int delayTicks, long seed, TaskKnowledge knowledge, Consumer<MemorySample> tap) {
    return run(mode, delayTicks, seed, knowledge, Reflex.OFF, tap);
  }

  MemoryRun run(GatingMode mode, int delayTicks, long seed, TaskKnowledge knowledge, Reflex reflex) {
    return run(mode, delayTicks, seed, knowledge, reflex, sample -> {});
  }

  MemoryRun run(
      GatingMode mode, int delayTicks, long seed, TaskKnowledge knowledge, Reflex reflex, Consumer<MemorySample> tap) {
    if (delayTicks < 0) {
      throw new IllegalArgumentException("delay must not be negative");
    }
    return new Run(gateConfig(mode), delayTicks, seed, knowledge, reflex, tap).play();
  }

  /**
   * The enforcer's reflex as the bench models it (issue 21): at {@code hz} readings a second it reads the memory
   * of every task whose row in the last gate table to reach it says RUNNING, not interactive, not admitted (mode
   * not OFF), and freezes one whose reading is above its threshold after a reading at or below it, unless a
   * decision already froze it. The freeze holds {@code latencyMs} after the reading, under a reflex lease of
   * {@code leaseMs} that a FREEZE decision replaces, a THAW ends, and that otherwise thaws the task when it runs out.
   *
   * @param hz readings per second, dividing 1000; 0 is no reflex
   */
  record Reflex(int hz, long latencyMs, long leaseMs) {

    static final Reflex OFF = new Reflex(0, 0, 10_000);

    Reflex {
      if (hz < 0 || hz > 1000 || (hz > 0 && TICK_MS % hz != 0)) {
        throw new IllegalArgumentException("reflex Hz must be 0 or divide 1000: " + hz);
      }
      if (latencyMs < 0 || leaseMs <= 0) {
        throw new IllegalArgumentException("reflex latency must not be negative and its lease must be positive");
      }
    }

    static Reflex at(int hz) {
      return new Reflex(hz, 0, 10_000);
    }

    boolean on() {
      return hz > 0;
    }

    long periodMs() {
      return TICK_MS / hz;
    }
  }

  /** One run: the node's tasks, the gate, the decisions on their way to the enforcer, and the reflex's view. */
  private final class Run {

    private final PeakGate gate;
    private final long delayMs;
    private final Reflex reflex;
    private final Consumer<MemorySample> tap;
    private final List<SimulatedTask> sims = new ArrayList<>();
    /** What has left the streams app and not yet reached the enforcer, and the enforcer's own timers. */
    private final PriorityQueue<Due> due = new PriorityQueue<>(Comparator.comparingLong(Due::atMs)
        .thenComparingLong(Due::seq));
    private long seq;
    private long nowMs;
    private GateTable published;
    private Map<String, GateTable.Row> reflexRows = Map.of();
    private GatingMode reflexMode = GatingMode.OFF;
    /** Per task, the reflex's last reading while watched; −1 when not watched then. */
    private final long[] lastReading;
    /** A table arrived since the last reading: its RUNNING rows stand for a reading at or below the threshold. */
    private boolean tableSinceLastReading;
    /** Per task, when its reflex lease runs out; −1 when it holds none. */
    private final long[] reflexLeaseUntilMs;
    private final GatingMode mode;
    private final long seed;
    private int freezes;
    private int reflexFreezes;
    private int reflexLeasesRunOut;

    Run(PeakGateConfig config, int delayTicks, long seed, TaskKnowledge knowledge, Reflex reflex,
        Consumer<MemorySample> tap) {
      this.gate = new PeakGate(NODE, config, knowledge.profiles());
      this.delayMs = delayTicks * TICK_MS;
      this.reflex = reflex;
      this.tap = tap;
      this.mode = config.mode();
      this.seed = seed;
      SplittableRandom random = new SplittableRandom(seed);
      for (int i = 0; i < tasks; i++) {
        SimulatedTask task = new SimulatedTask("task-" + i, shape, random.split());
        sims.add(task);
        gate.onSpec(knowledge.spec(task.id()), 0);
      }
      lastReading = new long[tasks];
      reflexLeaseUntilMs = new long[tasks];
      Arrays.fill(lastReading, -1);
      Arrays.fill(reflexLeaseUntilMs, -1);
    }

    MemoryRun play() {
      List<Long> nodeMemory = new ArrayList<>();
      boolean[] goneSent = new boolean[tasks];
      long maxHeadWaitMs = 0;
      int live = tasks;
      for (int tick = 0; live > 0; tick++) {
        if (tick >= MAX_TICKS) {
          throw new IllegalStateException("tasks did not finish within " + MAX_TICKS + " ticks");
        }
        nowMs = tick * TICK_MS;
        for (int i = 0; i < tasks; i++) {
          SimulatedTask task = sims.get(i);
          MemorySample sample;
          if (task.finished()) {
            if (goneSent[i]) {
              continue;
            }
            goneSent[i] = true;
            live--;
            sample = MemorySample.gone(task.id(), nowMs);
          } else {
            long usage = bytes(task.memoryMib());
            sample = new MemorySample(task.id(), nowMs, usage, usage,
                task.frozen() ? CgroupState.FROZEN : CgroupState.RUNNING);
          }
          tap.accept(sample);
          send(gate.onSample(sample));
        }
        if (live == 0) {
          break;
        }
        long tickMaxMib = nodeMemoryMib();
        maxHeadWaitMs = Math.max(maxHeadWaitMs, gate.status().headWaitMs());
        // Decisions reach the task after the delay, in the order they were made, as an enforcer applies them.
        applyDue(nowMs);
        if (!reflex.on()) {
          for (SimulatedTask task : sims) {
            task.run(nowMs, TICK_MS);
          }
        } else {
          long tickStartMs = nowMs;
          for (long readingMs = tickStartMs + reflex.periodMs(); readingMs <= tickStartMs + TICK_MS;
              readingMs += reflex.periodMs()) {
            tickMaxMib = Math.max(tickMaxMib, runUntil(readingMs));
            read(readingMs);
            applyDue(readingMs);
          }
        }
        nodeMemory.add(tickMaxMib);
      }
      int[] finishTicks = sims.stream().mapToInt(SimulatedTask::finishedAtTick).toArray();
      long[] series = nodeMemory.stream().mapToLong(Long::longValue).toArray();
      return new MemoryRun(mode, (int) (delayMs / TICK_MS), seed, series, finishTicks, maxHeadWaitMs, freezes,
          reflex.hz(), reflexFreezes, reflexLeasesRunOut);
    }

    /**
     * Runs the tasks to {@code untilMs}, stopping at everything due on the way (a freeze part-way through a step
     * holds the task exactly there); returns the most node memory at any of those points.
     */
    private long runUntil(long untilMs) {
      long maxMib = 0;
      while (true) {
        Due next = due.peek();
        long stopMs = next != null && next.atMs() < untilMs ? next.atMs() : untilMs;
        for (SimulatedTask task : sims) {
          task.run(nowMs, stopMs - nowMs);
        }
        nowMs = stopMs;
        maxMib = Math.max(maxMib, nodeMemoryMib());
        if (stopMs == untilMs) {
          return maxMib;
        }
        applyDue(stopMs);
      }
    }

    /** One reading of the reflex over every task it watches. */
    private void read(long readingMs) {
      for (int i = 0; i < tasks; i++) {
        SimulatedTask task = sims.get(i);
        GateTable.Row row = reflexRows.get(task.id());
        boolean watched = !task.finished() && reflexMode != GatingMode.OFF && row != null
            && row.role() == GateRole.RUNNING && !row.interactive() && !row.admitted();
        if (!watched) {
          lastReading[i] = -1;
          continue;
        }
        long reading = bytes(task.memoryMib());
        // A crossing needs a reading at or below the threshold first, the reflex's own or, for a task not read
        // since it was watched, the RUNNING row of a table just arrived (ReflexRule.toFreeze).
        boolean belowBefore = lastReading[i] >= 0 ? lastReading[i] <= row.thresholdBytes() : tableSinceLastReading;
        boolean crossed = belowBefore && reading > row.thresholdBytes();
        lastReading[i] = reading;
        if (crossed && !task.frozen()) {
          schedule(new ReflexFreeze(readingMs + reflex.latencyMs(), seq++, i, reading));
        }
      }
      tableSinceLastReading = false;
    }

    private void applyDue(long untilMs) {
      while (!due.isEmpty() && due.peek().atMs() <= untilMs) {
        Due d = due.poll();
        if (d instanceof Decision decision) {
          apply(decision.decision());
        } else if (d instanceof Table t) {
          reflexMode = t.table().mode();
          Map<String, GateTable.Row> rows = new HashMap<>();
          for (GateTable.Row row : t.table().tasks()) {
            rows.put(row.task(), row);
          }
          reflexRows = rows;
          tableSinceLastReading = true;
        } else if (d instanceof ReflexFreeze f) {
          reflexFreeze(f);
        } else if (d instanceof LeaseEnd l && reflexLeaseUntilMs[l.task()] == l.atMs()) {
          // Neither adopted nor overruled in time: the enforcer's lease expiry thaws it.
          reflexLeaseUntilMs[l.task()] = -1;
          sims.get(l.task()).setFrozen(false);
          reflexLeasesRunOut++;
        }
      }
    }

    private void apply(GateDecision d) {
      if (d.action() == GateAction.FORGET) {
        return;
      }
      int i = Integer.parseInt(d.task().substring("task-".length()));
      // A FREEZE replaces a reflex lease with the decision's full one; a THAW ends it.
      reflexLeaseUntilMs[i] = -1;
      sims.get(i).setFrozen(d.action() == GateAction.FREEZE);
    }

    private void reflexFreeze(ReflexFreeze f) {
      SimulatedTask task = sims.get(f.task());
      if (task.finished() || task.frozen()) {
        // The enforcer holds a lease on it already (or it is gone): the reflex leaves it alone.
        return;
      }
      task.setFrozen(true);
      reflexFreezes++;
      reflexLeaseUntilMs[f.task()] = f.atMs() + reflex.leaseMs();
      schedule(new LeaseEnd(f.atMs() + reflex.leaseMs(), seq++, f.task()));
      // The result reaches the streams app as an input like a sample, and its answer goes the decisions' way.
      send(gate.onReflexFreeze(task.id(), f.atMs(), f.readingBytes()));
    }

    /** The streams app's output of one input: its decisions, then the table if it is worth publishing. */
    private void send(List<GateDecision> decisions) {
      for (GateDecision d : decisions) {
        if (d.action() == GateAction.FREEZE && d.reason() != GateReason.LEASE_RENEWAL
            && d.reason() != GateReason.REFLEX_ADOPTED) {
          freezes++;
        }
        schedule(new Decision(nowMs + delayMs, seq++, d));
      }
      if (reflex.on()) {
        GateTable table = gate.table();
        if (table.worthPublishingAfter(published)) {
          published = table;
          schedule(new Table(nowMs + delayMs, seq++, table));
        }
      }
    }

    private void schedule(Due d) {
      due.add(d);
    }

    private long nodeMemoryMib() {
      long sum = 0;
      for (SimulatedTask task : sims) {
        if (!task.finished()) {
          sum += task.memoryMib();
        }
      }
      return sum;
    }
  }

  /** Something that happens to the enforcer at {@code atMs}; {@code seq} keeps equal times in the order sent. */
  private sealed interface Due permits Decision, Table, ReflexFreeze, LeaseEnd {
    long atMs();

    long seq();
  }

  private record Decision(long atMs, long seq, GateDecision decision) implements Due {}

  private record Table(long atMs, long seq, GateTable table) implements Due {}

  private record ReflexFreeze(long atMs, long seq, int task, long readingBytes) implements Due {}

  private record LeaseEnd(long atMs, long seq, int task) implements Due {}
}
