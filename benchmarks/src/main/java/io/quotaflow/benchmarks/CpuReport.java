package io.quotaflow.benchmarks;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The figures of {@code quotaflow bench cpu} as Markdown tables, and the targets checked against them. */
final class CpuReport {

  /** Issue 20's targets: 100,000 samples/s with exactly_once_v2, a fifth of the raw path, p99 ≤ 150 ms at 20,000/s. */
  static final double TARGET_SAMPLES_PER_SECOND = 100_000;
  static final double GOAL_RATIO_TO_BASELINE = 0.2;
  static final long TARGET_P99_MS = 150;

  private CpuReport() {}

  static void print(PrintWriter out, List<CpuFigures> runs) {
    out.println();
    out.println("| run | commit ms | linger ms | offered | app samples/s | raw baseline samples/s | ratio | decisions/s"
        + " | backlog at end | p50 ms | p99 ms | p99.9 ms | max ms | baseline p50/p99/max ms"
        + " | heap B/task | heap at rest B/task | state B/task | DLQ | send failures | stream CPU µs/sample |");
    out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (CpuFigures f : runs) {
      Latencies.Summary l = f.latency();
      Latencies.Summary b = f.baselineLatency();
      out.printf(Locale.ROOT, "| %s | %d | %d | %s | %,.0f | %,.0f | %.3f | %,.0f | %,d | %d | %d | %d | %d | %d/%d/%d | %,.0f | %,.0f | %,.0f | %d | %d | %.1f |%n",
          f.run().label(), f.commitIntervalMs(), f.producerLingerMs(), f.offered(), f.appSamplesPerSecond(), f.baselineSamplesPerSecond(),
          f.ratioToBaseline(), f.decisionsPerSecond(), f.backlogAtEnd(), l.p50Ms(), l.p99Ms(), l.p999Ms(), l.maxMs(),
          b.p50Ms(), b.p99Ms(), b.maxMs(), f.heapBytesPerTask(), f.heapAtRestBytesPerTask(), f.stateBytesPerTask(), f.dlqRecords(), f.sendFailures(),
          f.streamCpuMicrosPerSample());
    }
    out.println();
    for (String verdict : verdicts(runs)) {
      out.println(verdict);
    }
    out.flush();
  }

  /** One line per target the runs can speak to. */
  static List<String> verdicts(List<CpuFigures> runs) {
    List<String> lines = new ArrayList<>();
    for (CpuFigures f : runs) {
      switch (f.run()) {
        case THROUGHPUT -> lines.add(String.format(Locale.ROOT,
            "Throughput: %,.0f samples/s sustained with exactly_once_v2: target %,.0f %s; %.3f of the raw baseline: goal %.1f %s.",
            f.appSamplesPerSecond(), TARGET_SAMPLES_PER_SECOND, met(f.appSamplesPerSecond() >= TARGET_SAMPLES_PER_SECOND),
            f.ratioToBaseline(), GOAL_RATIO_TO_BASELINE, met(f.ratioToBaseline() >= GOAL_RATIO_TO_BASELINE)));
        case LATENCY -> lines.add(String.format(Locale.ROOT,
            "Latency: p50 %d ms, p99 %d ms, p99.9 %d ms at %s offered (%,.0f samples/s taken): target p99 %d ms %s.",
            f.latency().p50Ms(), f.latency().p99Ms(), f.latency().p999Ms(), f.offered(), f.appSamplesPerSecond(), TARGET_P99_MS,
            met(f.latency().count() > 0 && f.latency().p99Ms() <= TARGET_P99_MS)));
      }
    }
    return lines;
  }

  private static String met(boolean met) {
    return met ? "met" : "MISSED";
  }
}
