package io.quotaflow.benchmarks;

import io.quotaflow.streams.engine.pools.IntegralPools;
import io.quotaflow.streams.engine.pools.PoolClusterSettings;
import io.quotaflow.streams.engine.pools.PoolLoad;
import io.quotaflow.streams.engine.pools.PoolSpec;
import io.quotaflow.streams.engine.pools.PoolAttributes;
import io.quotaflow.streams.engine.pools.PoolVolumeState;
import io.quotaflow.streams.engine.pools.PoolsPeriod;
import io.quotaflow.streams.engine.pools.PoolsUpdate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Seed 003's example run through the engine, one update per period of simulated time: a production
 * process needing 2000 cores 12 hours a day (hours 12–24 of each day), a research process needing
 * 1000 cores on average, and optionally a best-effort pool (no guarantee) that always wants the
 * whole cluster, which is what makes a guarantee matter.
 *
 * <p>Research work arrives at 1000 cpu·s per second and waits in a queue; the pool asks for all of
 * its queue at once, up to 2000 cores of parallel tasks. It is served what the engine grants it, so
 * a relaxed guarantee shows as work done later rather than as a lower rate. Each pool's tasks use
 * exactly their fair share: without a scheduler this is what the per-task cap enforces.
 */
final class PoolsScenario {

  static final String PRODUCTION = "production";
  static final String RESEARCH = "research";
  static final String BEST_EFFORT = "best-effort";

  static final long DAY_S = 86_400;
  static final double PRODUCTION_PEAK_CPU = 2000;
  static final double PRODUCTION_PEAK_START_HOUR = 12;
  static final double PRODUCTION_PEAK_HOURS = 12;
  static final double RESEARCH_ARRIVAL_CPU = 1000;
  static final double RESEARCH_MAX_PARALLEL_CPU = 2000;

  /** Simulated epoch of the first update; only differences matter. */
  private static final long START_MS = 1_767_225_600_000L;

  private final int days;
  private final long periodMs;
  private final int periodsPerBucket;

  /**
   * @param bucketMs about the width of one point of the recorded timeline (rounded to whole periods)
   */
  PoolsScenario(int days, long periodMs, long bucketMs) {
    if (days < 1) {
      throw new IllegalArgumentException("days must be >= 1, got " + days);
    }
    if (periodMs < 10 || periodMs > 60_000) {
      throw new IllegalArgumentException("period must be in [10, 60000] ms (YTsaurus's range), got " + periodMs);
    }
    this.days = days;
    this.periodMs = periodMs;
    this.periodsPerBucket = (int) Math.max(1, Math.round((double) bucketMs / periodMs));
  }

  static boolean productionPeaks(double timeS) {
    double hourOfDay = (timeS % DAY_S) / 3600.0;
    return hourOfDay >= PRODUCTION_PEAK_START_HOUR && hourOfDay < PRODUCTION_PEAK_START_HOUR + PRODUCTION_PEAK_HOURS;
  }

  PoolsRun run(PoolsSetup setup, boolean withBestEffort) {
    List<PoolSpec> pools = new ArrayList<>(setup.pools);
    if (withBestEffort) {
      pools.add(PoolSpec.of(BEST_EFFORT));
    }
    PoolClusterSettings cluster = PoolClusterSettings.defaults(setup.clusterCpu);
    IntegralPools engine = new IntegralPools();
    double periodS = periodMs / 1000.0;
    long updates = days * DAY_S * 1000 / periodMs;
    int buckets = (int) ((updates + periodsPerBucket - 1) / periodsPerBucket);
    Timeline timeline = new Timeline(buckets, periodsPerBucket * periodMs, setup.clusterCpu);
    PoolsRun.Totals totals = new PoolsRun.Totals(days);
    FifoWait researchWait = new FifoWait((int) updates);

    Map<String, PoolVolumeState> volumes = Map.of();
    double researchQueueCpuS = 0;
    for (long k = 0; k < updates; k++) {
      double timeS = k * periodS;
      int day = (int) (timeS / DAY_S);
      double productionDemandCpu = productionPeaks(timeS) ? PRODUCTION_PEAK_CPU : 0.0;
      double arrivedCpuS = RESEARCH_ARRIVAL_CPU * periodS;
      researchQueueCpuS += arrivedCpuS;
      double researchDemandCpu = Math.min(RESEARCH_MAX_PARALLEL_CPU, researchQueueCpuS / periodS);

      Map<String, PoolLoad> loads = new HashMap<>();
      loads.put(PRODUCTION, PoolLoad.ofDemand(productionDemandCpu));
      loads.put(RESEARCH, PoolLoad.ofDemand(researchDemandCpu));
      if (withBestEffort) {
        loads.put(BEST_EFFORT, PoolLoad.ofDemand(setup.clusterCpu));
      }
      PoolsUpdate update = engine.update(new PoolsPeriod(START_MS + k * periodMs, cluster, pools, loads, volumes));
      volumes = update.volumes();

      PoolAttributes production = update.state(PRODUCTION);
      PoolAttributes research = update.state(RESEARCH);
      double servedCpuS = Math.min(research.fairShareCpu() * periodS, researchQueueCpuS);
      researchQueueCpuS -= servedCpuS;
      double bestEffortCpu = withBestEffort ? update.state(BEST_EFFORT).fairShareCpu() : 0.0;

      totals.productionDemandCpuS[day] += productionDemandCpu * periodS;
      totals.productionGrantedCpuS[day] += production.fairShareCpu() * periodS;
      totals.researchSubmittedCpuS[day] += arrivedCpuS;
      totals.researchServedCpuS[day] += servedCpuS;
      totals.bestEffortGrantedCpuS += bestEffortCpu * periodS;
      totals.clusterGrantedCpuS += (production.fairShareCpu() + research.fairShareCpu() + bestEffortCpu) * periodS;
      researchWait.record(arrivedCpuS, servedCpuS);
      timeline.add((int) (k / periodsPerBucket), production, research, researchQueueCpuS, bestEffortCpu);
    }
    totals.researchQueueAtEndCpuS = researchQueueCpuS;
    totals.researchLongestWaitS = researchWait.longestWaitPeriods() * periodS;
    return new PoolsRun(setup, withBestEffort, updates, totals, timeline);
  }

  /**
   * First-in first-out wait of the research queue: the work that arrived in period k is done in
   * the first period whose cumulative service reaches the cumulative arrivals up to k.
   */
  private static final class FifoWait {
    private final double[] arrivedCpuS;
    private final double[] servedCpuS;
    private int periods;

    FifoWait(int capacity) {
      arrivedCpuS = new double[capacity];
      servedCpuS = new double[capacity];
    }

    void record(double arrived, double served) {
      double arrivedBefore = periods == 0 ? 0 : arrivedCpuS[periods - 1];
      double servedBefore = periods == 0 ? 0 : servedCpuS[periods - 1];
      arrivedCpuS[periods] = arrivedBefore + arrived;
      servedCpuS[periods] = servedBefore + served;
      periods++;
    }

    /** Longest wait, in periods, of work that was done before the run ended. */
    long longestWaitPeriods() {
      long longest = 0;
      int done = 0;
      for (int k = 0; k < periods; k++) {
        double target = arrivedCpuS[k] * (1 - 1e-9);
        while (done < periods && servedCpuS[done] < target) {
          done++;
        }
        if (done == periods) {
          break;
        }
        longest = Math.max(longest, done - k);
      }
      return longest;
    }
  }
}
