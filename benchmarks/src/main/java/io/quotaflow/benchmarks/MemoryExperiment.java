package io.quotaflow.benchmarks;

import io.quotaflow.streams.engine.memory.CgroupState;
import io.quotaflow.streams.engine.memory.GateAction;
import io.quotaflow.streams.engine.memory.GateDecision;
import io.quotaflow.streams.engine.memory.GateReason;
import io.quotaflow.streams.engine.memory.GatingMode;
import io.quotaflow.streams.engine.memory.MemorySample;
import io.quotaflow.streams.engine.memory.PeakGate;
import io.quotaflow.streams.engine.memory.PeakGateConfig;
import io.quotaflow.streams.engine.memory.ProfileBook;
import io.quotaflow.streams.engine.memory.UsageRecorder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Seed 004's experiment: a node running a few poorly behaved tasks, sampled once a tick, with the real
 * {@link PeakGate} deciding and its decisions taking effect {@code delayTicks} ticks after the sample they answer.
 *
 * @param tasks tasks on the node, all started at tick 0
 * @param budgetMib node memory the tasks should fit in (the gate's memory total)
 * @param maxConcurrentPeaks COUNT's slots
 */
record MemoryExperiment(int tasks, TaskShape shape, long budgetMib, long headroomMib, int maxConcurrentPeaks) {

  static final long MIB = 1L << 20;
  static final long TICK_MS = 1000;
  static final String NODE = "sim-node";
  /** Far beyond any run here; reaching it means a task never finished, which would be a bug worth stopping for. */
  private static final int MAX_TICKS = 1_000_000;

  static MemoryExperiment seed004() {
    return new MemoryExperiment(6, TaskShape.seed004(), 4500, 0, 1);
  }

  static long bytes(long mib) {
    return mib * MIB;
  }

  PeakGateConfig gateConfig(GatingMode mode) {
    return new PeakGateConfig(mode, 1.1, 1.05, maxConcurrentPeaks, bytes(budgetMib), bytes(headroomMib),
        180_000, 60_000, 600_000);
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
    if (delayTicks < 0) {
      throw new IllegalArgumentException("delay must not be negative");
    }
    PeakGate gate = new PeakGate(NODE, gateConfig(mode), knowledge.profiles());
    SplittableRandom random = new SplittableRandom(seed);
    List<SimulatedTask> sims = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      SimulatedTask task = new SimulatedTask("task-" + i, shape, random.split());
      sims.add(task);
      gate.onSpec(knowledge.spec(task.id()), 0);
    }
    Deque<Pending> pending = new ArrayDeque<>();
    List<Long> nodeMemory = new ArrayList<>();
    boolean[] goneSent = new boolean[tasks];
    long maxHeadWaitMs = 0;
    int freezes = 0;
    int live = tasks;
    for (int tick = 0; live > 0; tick++) {
      if (tick >= MAX_TICKS) {
        throw new IllegalStateException("tasks did not finish within " + MAX_TICKS + " ticks");
      }
      long tsMs = tick * TICK_MS;
      long memoryMib = 0;
      for (int i = 0; i < tasks; i++) {
        SimulatedTask task = sims.get(i);
        MemorySample sample;
        if (task.finished()) {
          if (goneSent[i]) {
            continue;
          }
          goneSent[i] = true;
          live--;
          sample = MemorySample.gone(task.id(), tsMs);
        } else {
          memoryMib += task.memoryMib();
          long usage = bytes(task.memoryMib());
          sample = new MemorySample(task.id(), tsMs, usage, usage,
              task.frozen() ? CgroupState.FROZEN : CgroupState.RUNNING);
        }
        tap.accept(sample);
        for (GateDecision d : gate.onSample(sample)) {
          if (d.action() == GateAction.FREEZE && d.reason() != GateReason.LEASE_RENEWAL) {
            freezes++;
          }
          pending.addLast(new Pending(tick + delayTicks, d));
        }
      }
      if (live == 0) {
        break;
      }
      nodeMemory.add(memoryMib);
      maxHeadWaitMs = Math.max(maxHeadWaitMs, gate.status().headWaitMs());
      // Decisions reach the task after the delay, in the order they were made, as an enforcer applies them.
      while (!pending.isEmpty() && pending.peekFirst().effectiveTick() <= tick) {
        GateDecision d = pending.removeFirst().decision();
        SimulatedTask task = sims.get(Integer.parseInt(d.task().substring("task-".length())));
        task.setFrozen(d.action() == GateAction.FREEZE);
      }
      for (SimulatedTask task : sims) {
        task.step(tick);
      }
    }
    int[] finishTicks = sims.stream().mapToInt(SimulatedTask::finishedAtTick).toArray();
    long[] series = nodeMemory.stream().mapToLong(Long::longValue).toArray();
    return new MemoryRun(mode, delayTicks, seed, series, finishTicks, maxHeadWaitMs, freezes);
  }

  private record Pending(int effectiveTick, GateDecision decision) {}
}
