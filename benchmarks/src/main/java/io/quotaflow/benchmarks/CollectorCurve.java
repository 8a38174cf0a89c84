package io.quotaflow.benchmarks;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The collector's cost against the number of groups it samples: one {@link Point} per group count
 * of {@code quotaflow bench collector --groups A,B,...}, its figures derived from what was measured
 * over the window, one table row per point, and the chart of % of one core against groups.
 */
final class CollectorCurve {

  private CollectorCurve() {}

  /** The child's CPU over the window split by thread (seconds); {@code rest} is the process CPU not in the others. */
  record Split(double samplerS, double producerS, double publisherS, double jitS, double gcS, double restS) {

    /**
     * Groups {@link ThreadCpu} names (truncated to 15 characters by the kernel) into the collector's own threads,
     * the JIT and the garbage collector; the rest is what the process used beyond them.
     */
    static Split of(Map<String, Long> threadNanos, double processCpuS) {
      double sampler = 0;
      double producer = 0;
      double publisher = 0;
      double jit = 0;
      double gc = 0;
      for (Map.Entry<String, Long> thread : threadNanos.entrySet()) {
        String name = thread.getKey();
        double seconds = thread.getValue() / 1e9;
        if (name.startsWith("qf-collector-sa")) {
          sampler += seconds;
        } else if (ThreadCpu.isProducerIo(name)) {
          producer += seconds;
        } else if (name.startsWith("qf-collector-pu")) {
          publisher += seconds;
        } else if (ThreadCpu.isJit(name)) {
          jit += seconds;
        } else if (ThreadCpu.isGc(name)) {
          gc += seconds;
        }
      }
      return new Split(sampler, producer, publisher, jit, gc,
          Math.max(0, processCpuS - sampler - producer - publisher - jit - gc));
    }
  }

  /**
   * What one point measured over its window.
   *
   * @param rounds sampling rounds that ended in the window
   * @param maxRoundS the longest round (wall) the collector's timer reports, over its last ~2 minutes
   * @param createS wall time to create the groups; {@code removeS} to remove them
   * @param loadAverage the machine's 1-minute load average at the end of the window
   */
  record Point(int groups, double periodS, double windowS, double cpuS, Split split, double rounds, double roundWallS,
      double maxRoundS, double published, double dropped, double readErrors, double createS, double removeS,
      double loadAverage) {

    double percentOfCore() {
      return 100 * cpuS / windowS;
    }

    double cpuPerRoundMs() {
      return 1000 * cpuS / rounds;
    }

    /** The process CPU, as % of one core, scaled to 1,000 groups at this point's period. */
    double percentPer1000Groups() {
      return percentOfCore() * 1000 / groups;
    }

    double microsPerGroupPerRound() {
      return 1e6 * cpuS / rounds / groups;
    }

    /** Rounds the window holds at the period: fewer rounds than this means rounds overran the period. */
    double expectedRounds() {
      return windowS / periodS;
    }

    double percent(double seconds) {
      return 100 * seconds / windowS;
    }
  }

  /** A straight line through the points: a fixed cost and a cost per 1,000 groups, both in % of one core. */
  record Fit(double fixedPercent, double percentPer1000Groups) {

    /** Least squares over the points (at least two distinct counts), of process CPU against groups. */
    static Fit of(List<Point> points) {
      double n = points.size();
      double meanX = points.stream().mapToDouble(Point::groups).sum() / n;
      double meanY = points.stream().mapToDouble(Point::percentOfCore).sum() / n;
      double sxy = 0;
      double sxx = 0;
      for (Point p : points) {
        sxy += (p.groups() - meanX) * (p.percentOfCore() - meanY);
        sxx += (p.groups() - meanX) * (p.groups() - meanX);
      }
      double slope = sxx == 0 ? Double.NaN : sxy / sxx;
      return new Fit(meanY - slope * meanX, 1000 * slope);
    }

    /** How far the point lies above (+) or below the line, % of one core. */
    double residualPercent(Point point) {
      return point.percentOfCore() - fixedPercent - percentPer1000Groups * point.groups() / 1000;
    }

    String describe(List<Point> points) {
      StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
          "Straight line (least squares): %.2f %% of one core + %.2f %% per 1,000 groups; off the line by", fixedPercent,
          percentPer1000Groups));
      for (Point p : points) {
        // Rounded first, and + 0.0 turns a -0.0 into 0.0: a point on the line prints +0.00.
        text.append(String.format(Locale.ROOT, " %+.2f (%,d)", Math.rint(residualPercent(p) * 100) / 100 + 0.0, p.groups()));
      }
      return text.append(" points.").toString();
    }
  }

  static String table(List<Point> points) {
    StringBuilder table = new StringBuilder();
    table.append("| groups | process CPU, % of one core | CPU per round | per 1,000 groups, % of one core | µs per group"
        + " per round | sampler | producer I/O | publisher | JIT | GC | rest | round (wall), mean / max"
        + " | rounds / expected | samples published | dropped | read errors | create, remove groups | load average |\n");
    table.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Point p : points) {
      Split s = p.split();
      table.append(String.format(Locale.ROOT,
          "| %,d | %.2f %% | %.1f ms | %.2f %% | %.1f | %.2f %% | %.2f %% | %.2f %% | %.2f %% | %.2f %% | %.2f %% |"
              + " %.1f / %.0f ms | %.0f / %.0f | %,.0f | %.0f | %.0f | %.1f s, %.1f s | %.2f |%n",
          p.groups(), p.percentOfCore(), p.cpuPerRoundMs(), p.percentPer1000Groups(), p.microsPerGroupPerRound(),
          p.percent(s.samplerS()), p.percent(s.producerS()), p.percent(s.publisherS()), p.percent(s.jitS()),
          p.percent(s.gcS()), p.percent(s.restS()), 1000 * p.roundWallS() / p.rounds(), 1000 * p.maxRoundS(),
          p.rounds(), p.expectedRounds(), p.published(), p.dropped(), p.readErrors(), p.createS(), p.removeS(),
          p.loadAverage()));
    }
    return table.toString();
  }

  /** % of one core against groups: the process, and the sampler thread alone. */
  static String chart(List<Point> points, String subtitle) {
    double[] groups = points.stream().mapToDouble(Point::groups).toArray();
    double[] process = points.stream().mapToDouble(Point::percentOfCore).toArray();
    double[] sampler = points.stream().mapToDouble(p -> p.percent(p.split().samplerS())).toArray();
    return SvgChart.render("Collector CPU against the task groups it samples", subtitle,
        SvgChart.XAxis.quantity(groups, ""), List.of(new SvgChart.Panel("Collector CPU (% of one core) against groups",
            "% of one core", List.of(
                new SvgChart.Series("process (all threads)", "#c0392b", null, process),
                new SvgChart.Series("sampler thread", "#2471a3", "5,3", sampler)))));
  }
}
