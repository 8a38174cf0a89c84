package io.quotaflow.streams.engine.memory;

import java.util.Collection;

/** Whether one more task may hold a peak slot: the COUNT and BUDGET rules of DESIGN §4. */
final class PeakSlotAdmission {

  private PeakSlotAdmission() {}

  /** What admission needs to know of a task besides its state: its expected peak and its threshold. */
  interface Sizes {
    long peakBytes(TaskEntry task);

    /** Usage above which the task approaches its peak; 0 when the gate knows no normal for it. */
    long thresholdBytes(TaskEntry task);
  }

  /**
   * @param candidate a live task that is not yet a holder
   * @param tasks every task the gate knows, the candidate included
   */
  static boolean admits(PeakGateConfig config, TaskEntry candidate, Collection<TaskEntry> tasks, Sizes sizes) {
    int holders = 0;
    for (TaskEntry t : tasks) {
      if (t.role == GateRole.HOLDING) {
        holders++;
      }
    }
    long committed = config.mode() == GatingMode.BUDGET ? committedBytes(config, null, tasks, sizes) : 0;
    return admits(config, candidate, holders, committed, sizes);
  }

  /**
   * As {@link #admits(PeakGateConfig, TaskEntry, Collection, Sizes)} with the node's sums given, so that a caller
   * judging every task (the gate table) pays for them once.
   *
   * @param holders tasks holding a slot now
   * @param committedBytes {@link #committedBytes} without a candidate
   */
  static boolean admits(PeakGateConfig config, TaskEntry candidate, int holders, long committedBytes, Sizes sizes) {
    switch (config.mode()) {
      case COUNT:
        return holders < config.maxConcurrentPeaks();
      case BUDGET:
        // One holder is always admitted: otherwise a node whose other tasks alone exceed the budget would never
        // let anyone finish a peak, and the queue would starve.
        return holders == 0 || committedBytes - asOther(config, candidate, sizes) + asHolder(candidate, sizes)
            <= config.budgetBytes();
      default:
        return false;
    }
  }

  /**
   * Σ peak of holders, with the candidate among them (none when null) + Σ of every other live task's usage and
   * {@code budgetReserveFraction} of the way it may still grow to its threshold unseen.
   */
  static long committedBytes(PeakGateConfig config, TaskEntry candidate, Collection<TaskEntry> tasks, Sizes sizes) {
    long sum = 0;
    for (TaskEntry t : tasks) {
      if (!t.live) {
        continue;
      }
      boolean holder = t == candidate || t.role == GateRole.HOLDING;
      sum += holder ? asHolder(t, sizes) : asOther(config, t, sizes);
    }
    return sum;
  }

  /** A holder above its expected peak counts with what it really uses. */
  private static long asHolder(TaskEntry t, Sizes sizes) {
    return Math.max(sizes.peakBytes(t), t.usageBytes);
  }

  private static long asOther(PeakGateConfig config, TaskEntry t, Sizes sizes) {
    double reserve = config.budgetReserveFraction();
    long growth = Math.max(0, sizes.thresholdBytes(t) - t.usageBytes);
    return t.usageBytes + (reserve == 0 ? 0 : Math.round(reserve * growth));
  }
}
