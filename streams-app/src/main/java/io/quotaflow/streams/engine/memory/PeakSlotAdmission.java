package io.quotaflow.streams.engine.memory;

import java.util.Collection;
import java.util.function.ToLongFunction;

/** Whether one more task may hold a peak slot: the COUNT and BUDGET rules of DESIGN §4. */
final class PeakSlotAdmission {

  private PeakSlotAdmission() {}

  /**
   * @param candidate a live task that is not yet a holder
   * @param tasks every task the gate knows, the candidate included
   * @param peakBytes a task's expected peak
   */
  static boolean admits(
      PeakGateConfig config, TaskEntry candidate, Collection<TaskEntry> tasks, ToLongFunction<TaskEntry> peakBytes) {
    int holders = 0;
    for (TaskEntry t : tasks) {
      if (t.role == GateRole.HOLDING) {
        holders++;
      }
    }
    switch (config.mode()) {
      case COUNT:
        return holders < config.maxConcurrentPeaks();
      case BUDGET:
        // One holder is always admitted: otherwise a node whose other tasks alone exceed the budget would never
        // let anyone finish a peak, and the queue would starve.
        return holders == 0 || committedBytes(candidate, tasks, peakBytes) <= config.budgetBytes();
      default:
        return false;
    }
  }

  /** Σ peak of holders with the candidate among them + Σ current usage of every other live task. */
  static long committedBytes(TaskEntry candidate, Collection<TaskEntry> tasks, ToLongFunction<TaskEntry> peakBytes) {
    long sum = 0;
    for (TaskEntry t : tasks) {
      if (!t.live) {
        continue;
      }
      boolean holder = t == candidate || t.role == GateRole.HOLDING;
      // A holder above its expected peak counts with what it really uses.
      sum += holder ? Math.max(peakBytes.applyAsLong(t), t.usageBytes) : t.usageBytes;
    }
    return sum;
  }
}
