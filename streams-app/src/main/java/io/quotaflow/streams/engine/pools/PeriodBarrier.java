package io.quotaflow.streams.engine.pools;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * DESIGN §3's barrier: the node partitions each report their pools' sums once a period of stream
 * time, in any interleaving; a period is computed once every partition it waits for has reported
 * it, and then with each partition's sums as they stood at the end of that period. So the pool
 * update does not depend on how partitions interleave, only on what each reported.
 *
 * <p>A partition is waited for while it keeps up: one that lags the newest reported period by more
 * than {@link #INACTIVE_AFTER_PERIODS} (a partition with no nodes, or a stalled one) is not, and its
 * last sums still count. A partition that has not reported at all counts as having reported just
 * before the first period anyone reported, so for the first periods the barrier waits for every
 * partition. Every period from the first on is computed, in order, at most
 * {@link #MAX_CATCH_UP_PERIODS} behind the newest ready one. All of this depends only on what each
 * partition reported, never on the order the reports arrived in.
 *
 * <p>Plain Java and a value in, values out: {@link #snapshot} and {@link #restore} let a processor
 * keep it in a changelogged store.
 */
public final class PeriodBarrier {

  public static final int INACTIVE_AFTER_PERIODS = 10;
  /**
   * After a pause of the whole stream, only this many periods are computed; the first of them spans
   * the rest of the pause (the engine's volume tick uses the time since the pool's last update).
   */
  public static final int MAX_CATCH_UP_PERIODS = 60;

  /**
   * One pool's sum in one partition, in millionths of a CPU: integer sums are the same whichever
   * partitions they are split over, where floating-point sums would differ in their last bits.
   */
  public record PoolSum(long reportedUcpu, int tasks) {}

  private static final double UCPU_PER_CPU = 1_000_000.0;

  /** One partition's sums at the end of {@code period}. */
  public record Report(int partition, long period, long nodeCpus, Map<String, PoolSum> pools) {
    public Report {
      pools = Map.copyOf(pools);
    }
  }

  /**
   * A period ready to compute.
   *
   * @param nodeCpus the cpus of every node the partitions know, for a cluster config without total_cpu
   * @param loads per pool: demand and usage are both the sum of its tasks' reported limits (DESIGN §3)
   */
  public record ReadyPeriod(long period, long nodeCpus, Map<String, PoolLoad> loads) {}

  /**
   * Everything the barrier keeps.
   *
   * @param reports per partition, oldest first; the first may be at or below {@code lastComputed}
   * @param firstPeriod the first period anyone reported; null before any report
   * @param lastComputed the newest period handed out; null before any
   */
  public record State(Map<Integer, List<Report>> reports, Long firstPeriod, Long lastComputed) {
    public State {
      TreeMap<Integer, List<Report>> copy = new TreeMap<>();
      reports.forEach((p, list) -> copy.put(p, List.copyOf(list)));
      reports = copy;
    }
  }

  private final int partitions;
  private final TreeMap<Integer, List<Report>> reports = new TreeMap<>();
  private Long firstPeriod;
  private Long lastComputed;

  /** @param partitions how many node partitions may report */
  public PeriodBarrier(int partitions) {
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be at least 1, was " + partitions);
    }
    this.partitions = partitions;
  }

  public static PeriodBarrier restore(int partitions, State state) {
    PeriodBarrier barrier = new PeriodBarrier(partitions);
    state.reports().forEach((p, list) -> barrier.reports.put(p, new ArrayList<>(list)));
    barrier.firstPeriod = state.firstPeriod();
    barrier.lastComputed = state.lastComputed();
    return barrier;
  }

  public State snapshot() {
    return new State(reports, firstPeriod, lastComputed);
  }

  /** Takes one partition's report and returns the periods it made ready, oldest first. */
  public List<ReadyPeriod> add(Report report) {
    Objects.requireNonNull(report, "report");
    if (report.partition() < 0 || report.partition() >= partitions) {
      throw new IllegalArgumentException("partition " + report.partition() + " is not one of " + partitions);
    }
    List<Report> list = reports.computeIfAbsent(report.partition(), p -> new ArrayList<>());
    Report latest = list.isEmpty() ? null : list.get(list.size() - 1);
    if (latest != null && report.period() < latest.period()) {
      return List.of(); // older than what the partition already said: nothing new about any period
    }
    if (latest != null && report.period() == latest.period()) {
      list.set(list.size() - 1, report);
    } else {
      list.add(report);
    }
    firstPeriod = firstPeriod == null ? report.period() : Math.min(firstPeriod, report.period());

    long readyUpTo = readyUpTo();
    long from = lastComputed == null ? firstPeriod : lastComputed + 1;
    from = Math.max(from, readyUpTo - MAX_CATCH_UP_PERIODS + 1);
    List<ReadyPeriod> ready = new ArrayList<>();
    for (long period = from; period <= readyUpTo; period++) {
      ready.add(inputsAt(period));
    }
    if (!ready.isEmpty()) {
      lastComputed = readyUpTo;
      prune(readyUpTo);
    }
    return ready;
  }

  /** The newest period every partition still waited for has reported. */
  private long readyUpTo() {
    long newest = Long.MIN_VALUE;
    for (List<Report> list : reports.values()) {
      newest = Math.max(newest, list.get(list.size() - 1).period());
    }
    long ready = newest;
    for (int p = 0; p < partitions; p++) {
      List<Report> list = reports.get(p);
      long latest = list == null ? firstPeriod - 1 : list.get(list.size() - 1).period();
      if (newest - latest <= INACTIVE_AFTER_PERIODS) {
        ready = Math.min(ready, latest);
      }
    }
    return ready;
  }

  /** Each partition's report in force at the end of {@code period}, summed per pool. */
  private ReadyPeriod inputsAt(long period) {
    TreeMap<String, Long> reportedUcpu = new TreeMap<>();
    long nodeCpus = 0;
    for (List<Report> list : reports.values()) {
      Report inForce = null;
      for (Report r : list) {
        if (r.period() > period) {
          break;
        }
        inForce = r;
      }
      if (inForce == null) {
        continue;
      }
      nodeCpus += inForce.nodeCpus();
      inForce.pools().forEach((pool, sum) -> reportedUcpu.merge(pool, sum.reportedUcpu(), Long::sum));
    }
    Map<String, PoolLoad> loads = new TreeMap<>();
    reportedUcpu.forEach((pool, ucpu) -> loads.put(pool, new PoolLoad(ucpu / UCPU_PER_CPU, ucpu / UCPU_PER_CPU)));
    return new ReadyPeriod(period, nodeCpus, loads);
  }

  /** Keeps, per partition, the reports after {@code computed} and the last one at or before it. */
  private void prune(long computed) {
    for (List<Report> list : reports.values()) {
      int lastAtOrBefore = -1;
      for (int i = 0; i < list.size(); i++) {
        if (list.get(i).period() <= computed) {
          lastAtOrBefore = i;
        }
      }
      if (lastAtOrBefore > 0) {
        list.subList(0, lastAtOrBefore).clear();
      }
    }
  }
}
