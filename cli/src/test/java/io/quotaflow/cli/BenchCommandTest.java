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
 * same command, subcommands and usage lines under {@code quotaflow}, and a benchmark run through it;
 * {@code bench replay} and {@code bench reflex}, which the cli adds since the replay classes, the stepping
 * allocator and the node stack are its own, among them.
 */
class BenchCommandTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  /** Runs {@code quotaflow ARGS} as the launcher does, into this test's {@code out} and {@code err}. */
  private int quotaflow(String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    CommandLine line = QuotaflowCli.commandLine().setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    return QuotaflowCli.execute(line, args);
  }

  @Test
  void helpListsTheBenchmarksUnderQuotaflowBench() {
    assertThat(quotaflow("bench", "--help")).isZero();
    assertThat(out.toString()).startsWith("Usage: quotaflow bench [-hV] [COMMAND]")
        .contains("Run a benchmark and print its figures (see docs/benchmarks.md).");
    assertThat(out.toString().lines().filter(l -> l.matches("^  [a-z]+ .*")).map(l -> l.trim().split("\\s+")[0]))
        .containsExactly("memory", "pools", "collector", "cpu", "cgroups", "soak", "engines", "enforcer", "replay",
            "reflex");
  }

  @Test
  void eachBenchmarksUsageIsNamedUnderQuotaflowBench() {
    for (String benchmark :
        new String[] {"memory", "pools", "collector", "cpu", "cgroups", "engines", "enforcer", "replay", "reflex"}) {
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

  /** A small recording replayed once: every figure printed, every task's decisions identical. No timing is asserted. */
  @Test
  void replayBenchPrintsItsFiguresAndEveryTaskIdentical() {
    assertThat(quotaflow("bench", "replay", "--tasks", "20", "--nodes", "4", "--seconds", "10")).as(out + "\n" + err).isZero();
    String printed = out.toString();
    assertThat(printed).startsWith("quotaflow bench replay: 20 tasks on 4 nodes, 10 s of 1 Hz samples, 12 partitions;")
        .contains("recording: 200 samples decided by the streams app in ")
        .containsPattern("input records: +\\d+ \\(200 samples\\)")
        .containsPattern("decisions recorded: +[1-9][\\d,]* cpu, [\\d,]+ freeze");
    for (String stage : new String[] {"read", "merge", "replay", "report", "end to end"}) {
      assertThat(printed).as(stage).containsPattern("(?m)^  " + stage + ": +\\d+\\.\\d{3} s +[\\d,]+ records/s$");
    }
    assertThat(printed).contains("identical: 20 of 20 tasks (20 exact)");
  }
}
