package io.quotaflow.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code quotaflow bench cpu} end to end, small: its own embedded broker, both runs, seconds not minutes. */
class CpuBenchTest {

  @Test
  void bothRunsFeedTheAppAndReportRatesLatenciesAndNoDeadLetters() {
    StringWriter out = new StringWriter();
    CommandLine cli = new CommandLine(new BenchCommand());
    cli.setOut(new PrintWriter(out));

    int exit = cli.execute("cpu", "--nodes", "3", "--tasks-per-node", "4", "--partitions", "3",
        "--latency-rate", "300", "--backlog", "2000", "--warmup", "3s", "--window", "4s", "--baseline-window", "2s",
        "--streams-config", "statestore.cache.max.bytes=1048576");

    assertThat(exit).as(out.toString()).isZero();
    for (String run : List.of("throughput", "latency")) {
      List<String> cells = row(out.toString(), run);
      assertThat(number(cells.get(4))).as("%s app samples/s", run).isPositive();
      assertThat(number(cells.get(5))).as("%s raw baseline samples/s", run).isPositive();
      assertThat(number(cells.get(7))).as("%s decisions/s", run).isPositive();
      assertThat(number(cells.get(10))).as("%s p99 ms", run).isNotNegative();
      assertThat(number(cells.get(16))).as("%s state bytes per task", run).isPositive();
      assertThat(cells.get(17)).as("%s DLQ records", run).isEqualTo("0");
      assertThat(cells.get(18)).as("%s send failures", run).isEqualTo("0");
    }
    assertThat(out.toString()).contains("Throughput: ").contains("Latency: p50 ")
        .contains("app settings {statestore.cache.max.bytes=1048576}");
  }

  @Test
  void aScaleRunMeasuresThroughputAndHeapAtEachTaskCountAndWritesTheCsv(@TempDir Path dir) throws Exception {
    StringWriter out = new StringWriter();
    CommandLine cli = new CommandLine(new BenchCommand());
    cli.setOut(new PrintWriter(out));

    int exit = cli.execute("cpu", "--scale", "8,16", "--tasks-per-node", "4", "--partitions", "2",
        "--backlog", "1000", "--warmup", "2s", "--window", "2s", "--baseline-window", "1s", "--out-dir", dir.toString());

    assertThat(exit).as(out.toString()).isZero();
    assertThat(out.toString()).contains("throughput at [8, 16] tasks (4 per node)").contains("Scale: 16 tasks at ");
    List<String> eight = row(out.toString(), "8");
    assertThat(number(eight.get(1))).as("app samples/s at 8 tasks").isPositive();
    assertThat(eight.get(2)).as("the first is its own reference").isEqualTo("1.00");
    assertThat(number(eight.get(5))).as("stream CPU µs/sample").isPositive();
    assertThat(row(out.toString(), "16")).hasSize(10);
    assertThat(Files.readAllLines(dir.resolve("cpu-scale.csv"))).hasSize(3)
        .first().asString().startsWith("tasks,app_samples_per_s,").contains(",heap_at_rest_bytes_per_task,");
    assertThat(Files.readString(dir.resolve("cpu-scale.svg"))).startsWith("<svg").contains("Heap per task against tasks");
  }

  @Test
  void badOptionsAreRefusedWithWhatIsWrongBeforeAnythingStarts() {
    assertThat(refusal("--scale", "5000,1234")).contains("--scale: 1,234 tasks is not a whole number of nodes of 50 tasks");
    assertThat(refusal("--scale", "lots")).contains("--scale").contains("lots");
    assertThat(refusal("--runs", "throughput,fast")).contains("--runs: unknown run 'fast'");
    assertThat(refusal("--latency-rate", "0")).contains("must be positive");
    assertThat(refusal("--window", "0s")).contains("--window").contains("must be positive, was 0s");
    assertThat(refusal("--warmup", "soon")).contains("--warmup").contains("not a duration: 'soon'");
    assertThat(refusal("--nodes", "100000", "--tasks-per-node", "100000")).contains("at most 10,000,000 tasks");
  }

  /** What {@code quotaflow bench cpu ARGS} prints on stderr, having exited with 2 (a usage error). */
  private static String refusal(String... args) {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new BenchCommand());
    cli.setErr(new PrintWriter(err));
    String[] all = new String[args.length + 1];
    all[0] = "cpu";
    System.arraycopy(args, 0, all, 1, args.length);
    assertThat(cli.execute(all)).as(err.toString()).isEqualTo(2);
    return err.toString();
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
