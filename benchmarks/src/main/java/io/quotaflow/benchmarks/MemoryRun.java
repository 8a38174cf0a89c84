package io.quotaflow.benchmarks;

import io.quotaflow.streams.engine.memory.GatingMode;

/**
 * What one simulated run produced.
 *
 * @param nodeMemoryMib node memory at every tick, until the last task finished
 * @param finishTicks per task, the tick at which it had done all its peaks
 * @param maxHeadWaitMs the longest the head of the wait queue waited, the gate's own measure
 * @param freezes FREEZE decisions that put a task in the queue (renewals and adopted reflex freezes not counted)
 * @param reflexHz the reflex's readings per second; 0 without one
 * @param reflexFreezes freezes the reflex made
 * @param reflexLeasesRunOut reflex freezes neither adopted nor overruled before their lease ran out
 */
record MemoryRun(
    GatingMode mode, int delayTicks, long seed, long[] nodeMemoryMib, int[] finishTicks, long maxHeadWaitMs,
    int freezes, int reflexHz, int reflexFreezes, int reflexLeasesRunOut) {

  /** A run without the reflex. */
  MemoryRun(GatingMode mode, int delayTicks, long seed, long[] nodeMemoryMib, int[] finishTicks, long maxHeadWaitMs,
      int freezes) {
    this(mode, delayTicks, seed, nodeMemoryMib, finishTicks, maxHeadWaitMs, freezes, 0, 0, 0);
  }

  int ticks() {
    return nodeMemoryMib.length;
  }

  long maxMib() {
    long max = 0;
    for (long m : nodeMemoryMib) {
      max = Math.max(max, m);
    }
    return max;
  }
}
