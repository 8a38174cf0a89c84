package io.quotaflow.benchmarks;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code quotaflow bench cpu --scale}: the throughput runs at growing task counts side by side, each
 * against the first (smallest), with issue 20's targets: the largest within 25 % of the smallest's
 * throughput, at most 2 KiB of heap per task.
 */
final class CpuScale {

  static final double MAX_FALL = 0.25;
  static final double MAX_HEAP_BYTES_PER_TASK = 2048;

  private CpuScale() {}

  static void print(PrintWriter out, List<CpuFigures> runs) {
    out.println();
    out.println("| tasks | app samples/s | of the first | raw baseline samples/s | ratio | stream CPU µs/sample"
        + " | heap B/task | heap MiB | heap at rest B/task | state B/task |");
    out.println("|---|---|---|---|---|---|---|---|---|---|");
    double first = runs.get(0).appSamplesPerSecond();
    for (CpuFigures f : runs) {
      out.printf(Locale.ROOT, "| %,d | %,.0f | %.2f | %,.0f | %.3f | %.1f | %,.0f | %,.0f | %,.0f | %,.0f |%n",
          f.tasks(), f.appSamplesPerSecond(), f.appSamplesPerSecond() / first, f.baselineSamplesPerSecond(),
          f.ratioToBaseline(), f.streamCpuMicrosPerSample(), f.heapBytesPerTask(), f.heapMibTotal(),
          f.heapAtRestBytesPerTask(), f.stateBytesPerTask());
    }
    out.println();
    out.println(verdict(runs));
    out.flush();
  }

  static String verdict(List<CpuFigures> runs) {
    CpuFigures first = runs.get(0);
    CpuFigures last = runs.get(runs.size() - 1);
    String fall;
    if (runs.size() == 1) {
      // One task count is compared with nothing: only its heap can be judged.
      fall = String.format(Locale.ROOT, " (one task count: give two or more to check the fall, target ≥ %.0f %% of the first)",
          100 * (1 - MAX_FALL));
    } else {
      double ofFirst = last.appSamplesPerSecond() / first.appSamplesPerSecond();
      fall = String.format(Locale.ROOT, ", %.0f %% of %,d tasks' %,.0f (target ≥ %.0f %%: %s)", 100 * ofFirst,
          first.tasks(), first.appSamplesPerSecond(), 100 * (1 - MAX_FALL), met(ofFirst >= 1 - MAX_FALL));
    }
    // Judged under load, as the window closed; at rest (nothing waiting for a commit) is shown beside it.
    return String.format(Locale.ROOT,
        "Scale: %,d tasks at %,.0f samples/s%s; heap %,.0f B/task under load (target ≤ %,.0f: %s), %,.0f at rest.",
        last.tasks(), last.appSamplesPerSecond(), fall, last.heapBytesPerTask(), MAX_HEAP_BYTES_PER_TASK,
        met(last.heapBytesPerTask() <= MAX_HEAP_BYTES_PER_TASK), last.heapAtRestBytesPerTask());
  }

  /** Throughput, CPU per sample and heap per task against tasks, one panel each. */
  static String chart(List<CpuFigures> runs) {
    double[] tasks = runs.stream().mapToDouble(CpuFigures::tasks).toArray();
    double[] rate = runs.stream().mapToDouble(CpuFigures::appSamplesPerSecond).toArray();
    double[] cpu = runs.stream().mapToDouble(CpuFigures::streamCpuMicrosPerSample).toArray();
    double[] heap = runs.stream().mapToDouble(CpuFigures::heapBytesPerTask).toArray();
    double[] heapAtRest = runs.stream().mapToDouble(CpuFigures::heapAtRestBytesPerTask).toArray();
    double[] heapTarget = runs.stream().mapToDouble(f -> MAX_HEAP_BYTES_PER_TASK).toArray();
    return SvgChart.render("quotaflow bench cpu: cost as the tasks grow",
        "throughput run at each task count (exactly_once_v2, 1 s commits, backlog feed), one instance on 2 cores",
        SvgChart.XAxis.quantity(tasks, ""),
        List.of(new SvgChart.Panel("App samples/s against tasks", "samples/s",
                List.of(new SvgChart.Series("committed by the app", "#2471a3", null, rate))),
            new SvgChart.Panel("Stream-thread CPU per sample against tasks", "µs",
                List.of(new SvgChart.Series("stream threads", "#c0392b", null, cpu))),
            new SvgChart.Panel("Heap per task against tasks (after GC, app running)", "B/task",
                List.of(new SvgChart.Series("under load", "#1e8449", null, heap),
                    new SvgChart.Series("at rest (all committed)", "#7dcea0", null, heapAtRest),
                    new SvgChart.Series("target 2 KiB", "#7f8c8d", "5,3", heapTarget)))));
  }

  /** cpu-scale.csv: one row per task count, and cpu-scale.svg. */
  static List<Path> write(Path dir, List<CpuFigures> runs) throws IOException {
    Files.createDirectories(dir);
    List<String> lines = new ArrayList<>();
    lines.add("tasks,app_samples_per_s,raw_baseline_samples_per_s,stream_cpu_us_per_sample,heap_bytes_per_task,"
        + "heap_at_rest_bytes_per_task,state_bytes_per_task");
    for (CpuFigures f : runs) {
      lines.add(String.format(Locale.ROOT, "%d,%.0f,%.0f,%.2f,%.0f,%.0f,%.0f", f.tasks(), f.appSamplesPerSecond(),
          f.baselineSamplesPerSecond(), f.streamCpuMicrosPerSample(), f.heapBytesPerTask(), f.heapAtRestBytesPerTask(),
          f.stateBytesPerTask()));
    }
    Path csv = dir.resolve("cpu-scale.csv");
    Files.write(csv, lines, StandardCharsets.UTF_8);
    Path svg = dir.resolve("cpu-scale.svg");
    Files.writeString(svg, chart(runs), StandardCharsets.UTF_8);
    return List.of(csv, svg);
  }

  private static String met(boolean met) {
    return met ? "met" : "MISSED";
  }
}
