package io.quotaflow.benchmarks;

import io.quotaflow.process.Durations;
import io.quotaflow.process.Warnings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code quotaflow bench pools}: seed 003's example through the integral pools engine, offline,
 * compared with strong guarantees only. Prints Markdown tables and writes SVG charts and a CSV
 * timeline; see docs/benchmarks.md.
 */
@Command(
    name = "pools",
    mixinStandardHelpOptions = true,
    description = {
        "Seed 003's integral-pools example through the engine: a production burst pool (flow 1000,"
            + " burst 2000) needing 2000 cores 12 hours a day and a research relaxed pool (flow 1000)"
            + " needing 1000 cores on average, on 2000 cores, against strong guarantees only.",
        "Offline and deterministic: simulated time, no broker."})
public final class PoolsBench implements Callable<Integer> {

  private static final double CPU_S_PER_CPU_H = 3600.0;
  private static final long TIMELINE_BUCKET_MS = 300_000;
  private static final int VOLUME_TABLE_STEP_H = 3;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--days", paramLabel = "DAYS", defaultValue = "2", description = "Simulated days (default: ${DEFAULT-VALUE}).")
  int days;

  @Option(names = "--period", defaultValue = "1s", paramLabel = "DURATION", converter = Durations.Converter.class,
      description = "Stream time between pool updates, as fair_share_update_period_ms, 10ms to 1m (default: ${DEFAULT-VALUE}).")
  Duration period;

  @Option(names = "--period-ms", paramLabel = "MS", hidden = true, description = "Deprecated: --period in milliseconds.")
  Long periodMs;

  @Option(names = "--out-dir", paramLabel = "DIR", defaultValue = "target/bench-pools",
      description = "Where the charts and the CSV go (default: ${DEFAULT-VALUE}, relative to the working directory).")
  Path outDir;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    long periodMs = period.toMillis();
    if (this.periodMs != null) {
      Warnings.of(spec).deprecatedFlag("--period-ms", "--period " + Durations.format(Duration.ofMillis(this.periodMs)));
      periodMs = this.periodMs;
    }
    PoolsScenario scenario;
    try {
      scenario = new PoolsScenario(days, periodMs, TIMELINE_BUCKET_MS);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    long startNs = System.nanoTime();
    List<PoolsRun> alone = new ArrayList<>();
    List<PoolsRun> contended = new ArrayList<>();
    for (PoolsSetup setup : PoolsSetup.values()) {
      alone.add(scenario.run(setup, false));
      contended.add(scenario.run(setup, true));
    }
    double elapsedS = (System.nanoTime() - startNs) / 1e9;
    long updatesPerRun = alone.get(0).updates();

    out.printf(Locale.ROOT, "quotaflow bench pools: seed 003 through the integral pools engine, %d simulated day(s),"
        + " one update every %d ms (%,d updates per run).%n%n", days, periodMs, updatesPerRun);
    out.println("### The seed's two pools");
    out.println();
    printResults(out, alone, false);
    out.println();
    out.println("### With a best-effort pool (no guarantee, weight 1) that always wants the whole cluster");
    out.println();
    printResults(out, contended, true);
    out.println();
    out.println("### Integral setup, seed's two pools: accumulated volume over time");
    out.println();
    printVolumes(out, alone.get(0));

    Files.createDirectories(outDir);
    Path chart = outDir.resolve("pools-integral.svg");
    Path contendedChart = outDir.resolve("pools-integral-best-effort.svg");
    Path csv = outDir.resolve("pools-integral.csv");
    Files.writeString(chart, PoolsChart.render(alone.get(0)), StandardCharsets.UTF_8);
    Files.writeString(contendedChart, PoolsChart.render(contended.get(0)), StandardCharsets.UTF_8);
    Files.writeString(csv, PoolsCsv.render(alone.get(0)), StandardCharsets.UTF_8);
    out.println();
    out.printf(Locale.ROOT, "Charts: %s, %s%nTimeline (CSV): %s%n",
        chart.toAbsolutePath().normalize(), contendedChart.toAbsolutePath().normalize(), csv.toAbsolutePath().normalize());
    out.printf(Locale.ROOT, "Ran %d runs of %,d engine updates in %.1f s.%n", 2 * PoolsSetup.values().length,
        updatesPerRun, elapsedS);
    out.flush();
    return 0;
  }

  private void printResults(PrintWriter out, List<PoolsRun> runs, boolean withBestEffort) {
    StringBuilder header = new StringBuilder("| setup | cores | production got, of its demand |"
        + " research served, of work submitted | research's longest wait | research work waiting at end |");
    StringBuilder rule = new StringBuilder("|---|---:|---|---|---:|---:|");
    if (withBestEffort) {
      header.append(" best-effort mean |");
      rule.append("---:|");
    }
    header.append(" cluster used |");
    rule.append("---:|");
    out.println(header);
    out.println(rule);
    for (PoolsRun run : runs) {
      PoolsRun.Totals totals = run.totals();
      StringBuilder row = new StringBuilder();
      row.append(String.format(Locale.ROOT, "| %s | %,.0f | %s | %s | %.1f h | %,.0f cpu·h |",
          run.setup().label, run.setup().clusterCpu,
          perDay(totals, true), perDay(totals, false),
          totals.researchLongestWaitS / 3600.0, totals.researchQueueAtEndCpuS / CPU_S_PER_CPU_H));
      if (withBestEffort) {
        row.append(String.format(Locale.ROOT, " %,.0f cores |", run.bestEffortMeanCpu()));
      }
      row.append(String.format(Locale.ROOT, " %.1f %% |", 100 * run.utilisation()));
      out.println(row);
    }
  }

  private static String perDay(PoolsRun.Totals totals, boolean production) {
    List<String> days = new ArrayList<>();
    for (int day = 0; day < totals.days(); day++) {
      double fraction = production ? totals.productionFraction(day) : totals.researchFraction(day);
      days.add(String.format(Locale.ROOT, "%.1f %%", 100 * fraction));
    }
    return (totals.days() == 1 ? "" : "days: ") + String.join(" / ", days);
  }

  private static void printVolumes(PrintWriter out, PoolsRun run) {
    Timeline t = run.timeline();
    out.println("| hour | production volume | production: estimated_burst_usage_duration | research volume | research work waiting |");
    out.println("|---:|---:|---:|---:|---:|");
    for (int i = 0; i < t.buckets(); i++) {
      double hour = t.endHour(i);
      if (Math.abs(hour / VOLUME_TABLE_STEP_H - Math.rint(hour / VOLUME_TABLE_STEP_H)) > 1e-9) {
        continue;
      }
      double burstHours = t.productionBurstDurationS[i] / 3600.0;
      out.printf(Locale.ROOT, "| %.0f | %,.0f cpu·h | %s | %,.0f cpu·h | %,.0f cpu·h |%n", hour,
          t.productionVolumeCpuS[i] / CPU_S_PER_CPU_H,
          Double.isNaN(burstHours) ? "–" : String.format(Locale.ROOT, "%.1f h", burstHours),
          t.researchVolumeCpuS[i] / CPU_S_PER_CPU_H, t.researchQueueCpuS[i] / CPU_S_PER_CPU_H);
    }
  }
}
