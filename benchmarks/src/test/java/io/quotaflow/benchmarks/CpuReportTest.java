package io.quotaflow.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class CpuReportTest {

  private static CpuFigures figures(CpuRun run, double appRate, long p99Ms) {
    return figures(run, run.commitIntervalMs, run.producerLingerMs, appRate, p99Ms);
  }

  private static CpuFigures figures(CpuRun run, long commitIntervalMs, long lingerMs, double appRate, long p99Ms) {
    return new CpuFigures(run, commitIntervalMs, lingerMs, 5_000, "x", appRate, appRate / 2, 10,
        new Latencies.Summary(100, 50, p99Ms, p99Ms, p99Ms), 400_000, new Latencies.Summary(100, 1, 5, 6, 7), 5_000, 4_000, 300,
        0, 0, 12.5);
  }

  @Test
  void throughputIsCheckedAgainstTheTargetAndTheRatioGoal() {
    assertThat(CpuReport.verdicts(List.of(figures(CpuRun.THROUGHPUT, 100_000, 900))))
        .containsExactly("Throughput: 100,000 samples/s sustained with exactly_once_v2: target 100,000 met;"
            + " 0.250 of the raw baseline: goal 0.2 met.");
    assertThat(CpuReport.verdicts(List.of(figures(CpuRun.THROUGHPUT, 79_999, 900))).get(0))
        .contains("target 100,000 MISSED").contains("0.200 of the raw baseline: goal 0.2 MISSED");
  }

  @Test
  void latencyIsCheckedAgainstOneHundredFiftyMillisecondsAtP99() {
    assertThat(CpuReport.verdicts(List.of(figures(CpuRun.LATENCY, 20_000, 150))).get(0))
        .contains("p50 50 ms, p99 150 ms, p99.9 150 ms").endsWith("met.");
    assertThat(CpuReport.verdicts(List.of(figures(CpuRun.LATENCY, 20_000, 151))).get(0)).endsWith("MISSED.");
  }

  @Test
  void theScaleTableComparesEachTaskCountWithTheFirstAndChecksTheLargest() {
    CpuFigures small = figures(CpuRun.THROUGHPUT, 100_000, 900);
    CpuFigures large = new CpuFigures(CpuRun.THROUGHPUT, 1_000, 100, 100_000, "x", 74_000, 1, 10, small.latency(), 400_000,
        small.baselineLatency(), 2_049, 1_500, 300, 0, 0, 14);
    assertThat(CpuScale.verdict(List.of(small, large))).isEqualTo("Scale: 100,000 tasks at 74,000 samples/s, 74 % of"
        + " 5,000 tasks' 100,000 (target ≥ 75 %: MISSED); heap 2,049 B/task under load (target ≤ 2,048: MISSED),"
        + " 1,500 at rest.");
    StringWriter text = new StringWriter();
    CpuScale.print(new PrintWriter(text), List.of(small, large));
    assertThat(text.toString()).contains("| 5,000 | 100,000 | 1.00 | 400,000 | 0.250 | 12.5 | 5,000 | 24 | 4,000 | 300 |")
        .contains("| 100,000 | 74,000 | 0.74 |");
  }

  @Test
  void oneTaskCountAloneIsNotCalledFlat() {
    CpuFigures small = figures(CpuRun.THROUGHPUT, 100_000, 900);
    CpuFigures one = new CpuFigures(CpuRun.THROUGHPUT, 1_000, 100, 100_000, "x", 13_000, 1, 10, small.latency(), 600_000,
        small.baselineLatency(), 1_741, 1_200, 300, 0, 0, 80);
    assertThat(CpuScale.verdict(List.of(one))).isEqualTo("Scale: 100,000 tasks at 13,000 samples/s (one task count:"
        + " give two or more to check the fall, target ≥ 75 % of the first); heap 1,741 B/task under load"
        + " (target ≤ 2,048: met), 1,200 at rest.");
  }

  @Test
  void theTableHasOneRowPerRunWithTheRatioToTheBaseline() {
    StringWriter text = new StringWriter();
    CpuReport.print(new PrintWriter(text), List.of(figures(CpuRun.THROUGHPUT, 80_000, 900), figures(CpuRun.LATENCY, 5_000, 150)));
    assertThat(text.toString())
        .contains("| throughput | 1000 | 100 | x | 80,000 | 400,000 | 0.200 |")
        .contains("| latency | " + CpuRun.LATENCY.commitIntervalMs + " | 5 | x | 5,000 | 400,000 | 0.013 |")
        .contains("| 0 | 0 | 12.5 |");
  }

  @Test
  void theTableShowsTheSettingsTheAppRanWithNotTheRunsOwn() {
    StringWriter text = new StringWriter();
    CpuReport.print(new PrintWriter(text), List.of(figures(CpuRun.LATENCY, 250, 0, 20_000, 120)));
    assertThat(text.toString()).contains("| latency | 250 | 0 | x | 20,000 |");
  }

  @Test
  void runsAreNamedInLowerCase() {
    assertThat(CpuRun.parse(" Latency ")).isEqualTo(CpuRun.LATENCY);
    assertThatThrownBy(() -> CpuRun.parse("fast")).hasMessageContaining("throughput or latency");
  }
}
