package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code quotaflow bench} as a user meets it, now that the benchmarks live in their own module: the
 * same command, subcommands and usage lines under {@code quotaflow}, and a benchmark run through it.
 */
class BenchCommandTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  /** Runs {@code quotaflow ARGS} as the launcher does, into this test's {@code out} and {@code err}. */
  private int quotaflow(String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    CommandLine line = new CommandLine(new QuotaflowCli()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    return QuotaflowCli.execute(line, args);
  }

  @Test
  void helpListsTheBenchmarksUnderQuotaflowBench() {
    assertThat(quotaflow("bench", "--help")).isZero();
    assertThat(out.toString()).startsWith("Usage: quotaflow bench [-hV] [COMMAND]")
        .contains("Run a benchmark and print its figures (see docs/benchmarks.md).");
    assertThat(out.toString().lines().filter(l -> l.matches("^  [a-z]+ .*")).map(l -> l.trim().split("\\s+")[0]))
        .containsExactly("memory", "pools", "collector", "cpu", "cgroups");
  }

  @Test
  void eachBenchmarksUsageIsNamedUnderQuotaflowBench() {
    for (String benchmark : new String[] {"memory", "pools", "collector", "cpu", "cgroups"}) {
      assertThat(quotaflow("bench", benchmark, "--help")).as(benchmark).isZero();
      assertThat(out.toString()).as(benchmark).startsWith("Usage: quotaflow bench " + benchmark + " ");
    }
  }

  @Test
  void benchWithoutABenchmarkIsAUsageError() {
    assertThat(quotaflow("bench")).isEqualTo(2);
    assertThat(err.toString()).startsWith("Missing benchmark: try 'quotaflow bench --help'.");
  }

  @Test
  void aBenchmarkRunsThroughTheQuotaflowCommand(@TempDir Path outDir) {
    assertThat(quotaflow("bench", "memory", "--seeds=1", "--delays=0", "--out-dir", outDir.toString())).as(err.toString()).isZero();
    assertThat(out.toString()).contains("seeds [1]", outDir.resolve("memory-gating-delay-0.svg").toString());
  }
}
