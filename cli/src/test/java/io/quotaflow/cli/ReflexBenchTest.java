package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cgroups.Sandboxes;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code quotaflow bench reflex} run briefly through its command line: the usage errors it refuses, and two crossings
 * on real cgroups with the reflex on, both stopped by the reflex rather than the gate's decision. No timing is asserted:
 * the figures are the benchmark's to print.
 */
class ReflexBenchTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int quotaflow(String... args) {
    CommandLine line = QuotaflowCli.commandLine().setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    return QuotaflowCli.execute(line, args);
  }

  @Test
  void badSeriesAndCountsAreUsageErrors() {
    assertThat(quotaflow("bench", "reflex", "--series", "sometimes")).isEqualTo(2);
    assertThat(err.toString()).contains("--series takes without and/or with, not 'sometimes'");
    assertThat(quotaflow("bench", "reflex", "--trials", "0")).isEqualTo(2);
    assertThat(err.toString()).contains("--trials, --sample-period and --commit-interval must be positive");
    assertThat(quotaflow("bench", "reflex", "--reflex-hz", "1001")).isEqualTo(2);
    assertThat(err.toString()).contains("--reflex-hz must be 1 to 1000, was 1001");
  }

  @Test
  void twoCrossingsWithTheReflexAreBothStoppedByIt() throws Exception {
    Sandboxes.openV1WithFreezerOrSkip().close(); // skips where v1 groups are not writable; the bench makes its own
    assertThat(quotaflow("bench", "reflex", "--series", "with", "--trials", "2")).as(out + "\n" + err).isZero();
    String printed = out.toString();
    assertThat(printed).startsWith("quotaflow bench reflex: threshold crossing -> freezer FROZEN, 2 trials per series")
        .containsPattern("reflex 10 Hz trial  1: \\S+ crossed at \\d+, FROZEN \\d+ ms later \\(reflex\\)")
        .containsPattern("reflex 10 Hz trial  2: \\S+ crossed at \\d+, FROZEN \\d+ ms later \\(reflex\\)")
        .contains("reflex 10 Hz: 2 of 2 freezes by the reflex")
        .containsPattern("(?m)^reflex 10 Hz +2 +\\d+ +\\d+ +\\d+$")
        .doesNotContain("without reflex");
  }
}
