package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code quotaflow collector} as an operator meets it: its flags, and one line when something is wrong. */
class CollectorCommandTest {

  record Run(int code, String out, String err) {}

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine commandLine = new CommandLine(new QuotaflowCli());
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int code = QuotaflowCli.execute(commandLine, args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void helpListsTheCollectorsFlagsAndTheConnectionOptions() {
    Run help = run("collector", "--help");
    assertThat(help.code()).isZero();
    assertThat(help.out()).contains("--node", "--cgroup-root", "--parent", "--layout", "--period", "--buffer",
        "--memory-stat-every", "--http-port", "QUOTAFLOW_COLLECTOR_HTTP_PORT", "--bootstrap", "--registry", "--kafka-config", "QUOTAFLOW_NODE");
  }

  @Test
  void aMissingCgroupRootIsOneLine() {
    Run run = run("collector", "--node", "n1", "--cgroup-root", "/no/such/cgroup/root", "--http-port", "0");
    assertThat(run.code()).isEqualTo(1);
    assertThat(run.err().lines()).containsExactly(
        "quotaflow collector: cgroups: cgroup root /no/such/cgroup/root does not exist or is not a directory");
  }

  @Test
  void badValuesAreOneLineAndUsageErrorsBeforeAnythingStarts() {
    Run period = run("collector", "--node", "n1", "--period", "often");
    assertThat(period.code()).isEqualTo(2);
    assertThat(period.err().lines()).containsExactly(
        "quotaflow collector: not a duration: 'often' (write e.g. 1s, 500ms, 2m or PT1S)");
    Run layout = run("collector", "--node", "n1", "--layout", "v3");
    assertThat(layout.code()).isEqualTo(2);
    assertThat(layout.err().lines()).containsExactly("quotaflow collector: cgroup layout must be v1, v2 or auto, not: v3");
    Run node = run("collector", "--node", "../etc");
    assertThat(node.err().lines()).singleElement().asString().startsWith("quotaflow collector: ").contains("node");
  }
}
