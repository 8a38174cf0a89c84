package io.quotaflow.benchmarks;

import io.quotaflow.streams.engine.memory.GatingMode;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The figures of one mode at one control delay, over all seeds.
 *
 * @param p99Mib 99th percentile of node memory over every tick of every seed (nearest rank)
 * @param overshootMib how far the highest tick went above the budget; 0 when it never did
 * @param ticksOverBudgetPercent share of ticks with node memory above the budget
 * @param meanSlowdown per task, finishing tick against the same task in the ungated run of the same seed
 * @param reflexHz the reflex's readings per second; 0 without one
 * @param reflexFreezes freezes the reflex made, over all seeds
 * @param reflexLeasesRunOut of those, the ones thawed by their reflex lease running out
 * @param worstSeed the seed whose run reached {@code maxMib}
 */
record MemoryFigures(
    GatingMode mode,
    int delayTicks,
    long maxMib,
    long p99Mib,
    long overshootMib,
    double ticksOverBudgetPercent,
    double meanSlowdown,
    double maxSlowdown,
    long maxHeadWaitMs,
    int reflexHz,
    int reflexFreezes,
    int reflexLeasesRunOut,
    long worstSeed) {

  static MemoryFigures of(List<MemoryRun> runs, Map<Long, MemoryRun> ungatedBySeed, long budgetMib) {
    MemoryRun first = runs.get(0);
    long[] all = runs.stream().flatMapToLong(r -> Arrays.stream(r.nodeMemoryMib())).sorted().toArray();
    long max = all[all.length - 1];
    long p99 = all[(int) Math.ceil(0.99 * all.length) - 1];
    long over = Arrays.stream(all).filter(m -> m > budgetMib).count();
    double slowdownSum = 0;
    double slowdownMax = 0;
    int n = 0;
    long maxWait = 0;
    int reflexFreezes = 0;
    int leasesRunOut = 0;
    MemoryRun worst = first;
    for (MemoryRun run : runs) {
      reflexFreezes += run.reflexFreezes();
      leasesRunOut += run.reflexLeasesRunOut();
      if (run.maxMib() > worst.maxMib()) {
        worst = run;
      }
      MemoryRun ungated = ungatedBySeed.get(run.seed());
      for (int i = 0; i < run.finishTicks().length; i++) {
        double slowdown = (double) run.finishTicks()[i] / ungated.finishTicks()[i];
        slowdownSum += slowdown;
        slowdownMax = Math.max(slowdownMax, slowdown);
        n++;
      }
      maxWait = Math.max(maxWait, run.maxHeadWaitMs());
    }
    return new MemoryFigures(first.mode(), first.delayTicks(), max, p99, Math.max(0, max - budgetMib),
        100.0 * over / all.length, slowdownSum / n, slowdownMax, maxWait, first.reflexHz(), reflexFreezes,
        leasesRunOut, worst.seed());
  }
}
