package io.quotaflow.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The seed's burst-pool figures for one run: CPU and demand per pool, then the accumulated volume. */
final class PoolsChart {

  private static final double CPU_S_PER_CPU_H = 3600.0;
  private static final String PRODUCTION_COLOR = "#1f5fbf";
  private static final String RESEARCH_COLOR = "#2a9d3a";
  private static final String BEST_EFFORT_COLOR = "#e07b00";
  private static final String DEMAND_COLOR = "#888";
  private static final String WAITING_COLOR = "#8e44ad";

  private PoolsChart() {}

  static String render(PoolsRun run) {
    Timeline t = run.timeline();
    double[] hours = new double[t.buckets()];
    for (int i = 0; i < hours.length; i++) {
      hours[i] = t.endHour(i);
    }
    List<SvgChart.Panel> panels = new ArrayList<>();
    panels.add(new SvgChart.Panel(
        "production — " + describe(run, PoolsScenario.PRODUCTION), "cores",
        List.of(
            new SvgChart.Series("demand", DEMAND_COLOR, "5,3", t.productionDemandCpu),
            new SvgChart.Series("fair share (CPU it gets)", PRODUCTION_COLOR, null, t.productionFairShareCpu))));
    List<SvgChart.Series> research = new ArrayList<>(List.of(
        new SvgChart.Series(String.format(Locale.ROOT, "demand (its queue, up to %,.0f)",
            PoolsScenario.RESEARCH_MAX_PARALLEL_CPU), DEMAND_COLOR, "5,3", t.researchDemandCpu),
        new SvgChart.Series("fair share (CPU it gets)", RESEARCH_COLOR, null, t.researchFairShareCpu)));
    if (run.withBestEffort()) {
      // Dashed: at times it equals research's share and would hide it.
      research.add(new SvgChart.Series("best-effort pool's fair share", BEST_EFFORT_COLOR, "8,4", t.bestEffortFairShareCpu));
    }
    panels.add(new SvgChart.Panel("research — " + describe(run, PoolsScenario.RESEARCH), "cores", research));
    panels.add(new SvgChart.Panel(
        "accumulated_resource_volume of each pool, and research's waiting work", "cpu·h",
        List.of(
            new SvgChart.Series("capacity (flow × 1 day)", DEMAND_COLOR, "2,3",
                constant(t.buckets(), Math.max(t.productionCapacityCpuS, t.researchCapacityCpuS) / CPU_S_PER_CPU_H)),
            new SvgChart.Series("production volume", PRODUCTION_COLOR, null, cpuHours(t.productionVolumeCpuS)),
            new SvgChart.Series("research volume", RESEARCH_COLOR, null, cpuHours(t.researchVolumeCpuS)),
            // Dashed on top: while research waits, its volume and its queue grow at the same rate.
            new SvgChart.Series("research work waiting", WAITING_COLOR, "6,4", cpuHours(t.researchQueueCpuS)))));
    String title = "quotaflow bench pools — " + run.setup().label + ", "
        + String.format(Locale.ROOT, "%,.0f", run.setup().clusterCpu) + " cores"
        + (run.withBestEffort() ? ", with a best-effort pool" : "");
    String subtitle = String.format(Locale.ROOT, "Seed 003: production needs %,.0f cores hours %.0f–%.0f of each day;"
            + " research needs %,.0f on average. Points are %.0f-minute means.",
        PoolsScenario.PRODUCTION_PEAK_CPU, PoolsScenario.PRODUCTION_PEAK_START_HOUR,
        PoolsScenario.PRODUCTION_PEAK_START_HOUR + PoolsScenario.PRODUCTION_PEAK_HOURS,
        PoolsScenario.RESEARCH_ARRIVAL_CPU, t.bucketMs / 60_000.0);
    return SvgChart.render(title, subtitle, hours, panels);
  }

  private static String describe(PoolsRun run, String pool) {
    return run.setup().pools.stream()
        .filter(spec -> spec.pool().equals(pool))
        .map(spec -> switch (spec.guaranteeType()) {
          case BURST -> String.format(Locale.ROOT, "burst pool (flow %,.0f, burst %,.0f)",
              spec.resourceFlowCpu(), spec.burstGuaranteeCpu());
          case RELAXED -> String.format(Locale.ROOT, "relaxed pool (flow %,.0f)", spec.resourceFlowCpu());
          case NONE -> spec.strongGuaranteeCpu() > 0
              ? String.format(Locale.ROOT, "strong guarantee %,.0f", spec.strongGuaranteeCpu())
              : "no guarantee";
        })
        .findFirst().orElse("");
  }

  private static double[] constant(int length, double value) {
    double[] values = new double[length];
    Arrays.fill(values, value);
    return values;
  }

  private static double[] cpuHours(double[] cpuS) {
    double[] cpuH = new double[cpuS.length];
    for (int i = 0; i < cpuS.length; i++) {
      cpuH[i] = cpuS[i] / CPU_S_PER_CPU_H;
    }
    return cpuH;
  }
}
