package io.quotaflow.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class CpuReportTest {

  private static CpuFigures figures(CpuRun run, double appRate, long p99Ms) {
    return new CpuFigures(run, "x", appRate, appRate / 2, 10, new Latencies.Summary(100, 50, p99Ms, p99Ms, p99Ms),
        1_000_000, new Latencies.Summary(100, 1, 5, 6, 7), 5_000, 300, 0, 0);
  }

  @Test
  void throughputIsCheckedAgainstTheTargetAndTheStretch() {
    assertThat(CpuReport.verdicts(List.of(figures(CpuRun.THROUGHPUT, 80_000, 900))))
        .containsExactly("Throughput: 80,000 samples/s sustained with exactly_once_v2: target 75,000 met, stretch 100,000 MISSED.");
    assertThat(CpuReport.verdicts(List.of(figures(CpuRun.THROUGHPUT, 74_999, 900))).get(0)).contains("target 75,000 MISSED");
  }

  @Test
  void latencyIsCheckedAgainstThreeHundredMillisecondsAtP99() {
    assertThat(CpuReport.verdicts(List.of(figures(CpuRun.LATENCY, 5_000, 300))).get(0)).contains("p99 300 ms").endsWith("met.");
    assertThat(CpuReport.verdicts(List.of(figures(CpuRun.LATENCY, 5_000, 301))).get(0)).endsWith("MISSED.");
  }

  @Test
  void theTableHasOneRowPerRunWithTheRatioToTheBaseline() {
    StringWriter text = new StringWriter();
    CpuReport.print(new PrintWriter(text), List.of(figures(CpuRun.THROUGHPUT, 80_000, 900), figures(CpuRun.LATENCY, 5_000, 150)));
    assertThat(text.toString())
        .contains("| throughput | 1000 | 100 | x | 80,000 | 1,000,000 | 0.080 |")
        .contains("| latency | 100 | 5 | x | 5,000 | 1,000,000 | 0.005 |");
  }

  @Test
  void runsAreNamedInLowerCase() {
    assertThat(CpuRun.parse(" Latency ")).isEqualTo(CpuRun.LATENCY);
    assertThatThrownBy(() -> CpuRun.parse("fast")).hasMessageContaining("throughput or latency");
  }
}
