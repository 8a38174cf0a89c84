package io.quotaflow.benchmarks;

import java.util.Locale;

/** The timeline of one run as CSV, one row per bucket, for plotting with other tools. */
final class PoolsCsv {

  private PoolsCsv() {}

  static String render(PoolsRun run) {
    Timeline t = run.timeline();
    StringBuilder csv = new StringBuilder(
        "end_hour,production_demand_cpu,production_fair_share_cpu,production_volume_cpu_s,"
            + "research_demand_cpu,research_fair_share_cpu,research_volume_cpu_s,research_waiting_cpu_s,"
            + "best_effort_fair_share_cpu\n");
    for (int i = 0; i < t.buckets(); i++) {
      csv.append(String.format(Locale.ROOT, "%.4f,%.3f,%.3f,%.1f,%.3f,%.3f,%.1f,%.1f,%.3f%n",
          t.endHour(i), t.productionDemandCpu[i], t.productionFairShareCpu[i], t.productionVolumeCpuS[i],
          t.researchDemandCpu[i], t.researchFairShareCpu[i], t.researchVolumeCpuS[i], t.researchQueueCpuS[i],
          t.bestEffortFairShareCpu[i]));
    }
    return csv.toString();
  }
}
