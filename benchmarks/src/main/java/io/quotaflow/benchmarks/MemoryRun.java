package io.quotaflow.benchmarks;

import io.quotaflow.streams.engine.memory.GatingMode;

/**
 * What one simulated run produced.
 *
 * @param nodeMemoryMib node memory at every tick, until the last task finished
 * @param finishTicks per task, the tick at which it had done all its peaks
 * @param maxHeadWaitMs the longest the head of the wait queue waited, the gate's own measure
 * @param freezes FREEZE decisions that put a task in the queue (renewals not counted)
 */
record MemoryRun(
    GatingMode mode, int delayTicks, long seed, long[] nodeMemoryMib, int[] finishTicks, long maxHeadWaitMs,
    int freezes) {

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
