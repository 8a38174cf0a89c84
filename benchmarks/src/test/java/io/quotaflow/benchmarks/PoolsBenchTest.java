package io.quotaflow.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class PoolsBenchTest {

  @Test
  void benchPoolsPrintsTheComparisonAndWritesChartsWhereAsked(@TempDir Path outDir) throws Exception {
    StringWriter out = new StringWriter();
    CommandLine cli = new CommandLine(new BenchCommand());
    cli.setOut(new PrintWriter(out));

    int exit = cli.execute("pools", "--days", "1", "--period", "1m", "--out-dir", outDir.toString());

    assertThat(exit).isZero();
    assertThat(out.toString())
        .contains("| integral: burst + relaxed | 2,000 |")
        .contains("| strong: production's peak + research's average | 3,000 |")
        .contains(outDir.resolve("pools-integral.svg").toString());
    assertThat(Files.readString(outDir.resolve("pools-integral.svg"))).startsWith("<svg");
    assertThat(Files.readString(outDir.resolve("pools-integral-best-effort.svg"))).contains("best-effort");
    assertThat(Files.readAllLines(outDir.resolve("pools-integral.csv"))).hasSize(1 + 24 * 12);
  }

  @Test
  void benchPoolsRefusesAPeriodOutsideTheRange(@TempDir Path outDir) {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new BenchCommand());
    cli.setErr(new PrintWriter(err));

    int exit = cli.execute("pools", "--period", "1ms", "--out-dir", outDir.toString());

    assertThat(exit).isNotZero();
    assertThat(err.toString()).contains("[10, 60000]");
  }

  @Test
  void theDeprecatedPeriodMsStillWorksWithAWarning(@TempDir Path outDir) {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new BenchCommand());
    cli.setErr(new PrintWriter(err));

    int exit = cli.execute("pools", "--period-ms", "1", "--out-dir", outDir.toString());

    assertThat(exit).isNotZero();
    assertThat(err.toString()).startsWith("quotaflow bench pools: warning: --period-ms is deprecated; use --period 1ms")
        .contains("[10, 60000]");
  }
}
