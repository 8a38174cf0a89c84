package io.quotaflow.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cli.QuotaflowCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code quotaflow bench cpu} end to end, small: its own embedded broker, both runs, seconds not minutes. */
class CpuBenchTest {

  @Test
  void bothRunsFeedTheAppAndReportRatesLatenciesAndNoDeadLetters() {
    StringWriter out = new StringWriter();
    CommandLine cli = new CommandLine(new QuotaflowCli());
    cli.setOut(new PrintWriter(out));

    int exit = cli.execute("bench", "cpu", "--nodes", "3", "--tasks-per-node", "4", "--partitions", "3",
        "--latency-rate", "300", "--backlog", "2000", "--warmup", "3s", "--window", "4s", "--baseline-window", "2s",
        "--streams-config", "statestore.cache.max.bytes=1048576");

    assertThat(exit).as(out.toString()).isZero();
    for (String run : List.of("throughput", "latency")) {
      List<String> cells = row(out.toString(), run);
      assertThat(number(cells.get(4))).as("%s app samples/s", run).isPositive();
      assertThat(number(cells.get(5))).as("%s raw baseline samples/s", run).isPositive();
      assertThat(number(cells.get(7))).as("%s decisions/s", run).isPositive();
      assertThat(number(cells.get(10))).as("%s p99 ms", run).isNotNegative();
      assertThat(number(cells.get(15))).as("%s state bytes per task", run).isPositive();
      assertThat(cells.get(16)).as("%s DLQ records", run).isEqualTo("0");
      assertThat(cells.get(17)).as("%s send failures", run).isEqualTo("0");
    }
    assertThat(out.toString()).contains("Throughput: ").contains("Latency: p99 ")
        .contains("app settings {statestore.cache.max.bytes=1048576}");
  }

  @Test
  void anUnknownRunIsRefusedBeforeAnythingStarts() {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new QuotaflowCli());
    cli.setErr(new PrintWriter(err));

    assertThat(cli.execute("bench", "cpu", "--runs", "throughput,fast")).isEqualTo(2);
    assertThat(err.toString()).contains("--runs: unknown run 'fast'");
  }

  @Test
  void aZeroRateIsRefused() {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new QuotaflowCli());
    cli.setErr(new PrintWriter(err));

    assertThat(cli.execute("bench", "cpu", "--latency-rate", "0")).isEqualTo(2);
    assertThat(err.toString()).contains("must be positive");
  }

  @Test
  void aZeroWindowIsRefusedWithTheOptionsName() {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new QuotaflowCli());
    cli.setErr(new PrintWriter(err));

    assertThat(cli.execute("bench", "cpu", "--window", "0s")).isEqualTo(2);
    assertThat(err.toString()).contains("--window").contains("must be positive, was 0s");
    assertThat(cli.execute("bench", "cpu", "--warmup", "soon")).isEqualTo(2);
    assertThat(err.toString()).contains("--warmup").contains("not a duration: 'soon'");
  }

  @Test
  void moreTasksThanTheFeedHoldsAreRefused() {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new QuotaflowCli());
    cli.setErr(new PrintWriter(err));

    assertThat(cli.execute("bench", "cpu", "--nodes", "100000", "--tasks-per-node", "100000")).isEqualTo(2);
    assertThat(err.toString()).contains("at most 10,000,000 tasks");
  }

  /** The cells of the report's row for {@code run}, trimmed, without the empty ones at the edges. */
  private static List<String> row(String report, String run) {
    String line = report.lines().filter(l -> l.startsWith("| " + run + " |")).findFirst()
        .orElseThrow(() -> new AssertionError("no row for " + run + " in:\n" + report));
    return Arrays.stream(line.split("\\|")).map(String::trim).skip(1).toList();
  }

  private static double number(String cell) {
    return Double.parseDouble(cell.replace(",", ""));
  }
}
