package io.quotaflow.collector;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.process.Environment;
import io.quotaflow.process.OpsAddress;
import io.quotaflow.process.ProcessCommandLine;
import io.quotaflow.process.Warnings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@link CollectorMain} runs the picocli command {@code quotaflow collector} runs: same flags, environment, exit codes. */
class CollectorMainTest {

  record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine line = ProcessCommandLine.of(new CollectorCommand())
        .setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    return new Run(line.execute(args), out.toString(), err.toString());
  }

  @Test
  void flagsWinOverTheDefaults() {
    CollectorCommand command = new CollectorCommand();
    new CommandLine(command).parseArgs("--node", "from-flag", "--layout=v2", "--bootstrap", "k:9");
    assertThat(command.node.node()).isEqualTo("from-flag");
    assertThat(command.node.cgroupConfig().layout()).isEqualTo(CgroupLayout.V2);
    assertThat(command.connection.bootstrap()).isEqualTo("k:9");
    assertThat(command.node.cgroupConfig().root()).isEqualTo(Path.of("/sys/fs/cgroup"));
    assertThat(command.buffer).isEqualTo(CollectorSettings.DEFAULT_BUFFER_CAPACITY);
    assertThat(command.connection.registryUrl()).isEqualTo("http://localhost:8081");
  }

  /** The environment is the JVM's own, so this runs the main in a JVM of its own with the variables set. */
  @Test
  void environmentVariablesWinOverTheDefaultsInTheMain() throws Exception {
    ProcessBuilder builder = new ProcessBuilder(List.of(
        ProcessHandle.current().info().command().orElse("java"), "-cp", System.getProperty("java.class.path"),
        CollectorMain.class.getName(), "--help")).redirectErrorStream(true);
    builder.environment().put("QUOTAFLOW_PERIOD", "2s");
    Process child = builder.start();
    try {
      String help = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(child.exitValue()).isZero();
      assertThat(help).startsWith("Usage: collector")
          .contains("default 2s)", "default /sys/fs/cgroup)");
    } finally {
      child.destroyForcibly();
    }
  }

  @Test
  void unknownOrIncompleteFlagsAreUsageErrors() {
    Run unknown = run("--nodes", "x");
    assertThat(unknown.code()).isEqualTo(2);
    assertThat(unknown.err()).startsWith("Unknown options: '--nodes', 'x'");
    Run incomplete = run("--node");
    assertThat(incomplete.code()).isEqualTo(2);
    assertThat(incomplete.err()).startsWith("Missing required parameter for option '--node'");
  }

  @Test
  void aBadValueIsOneLineAndAUsageErrorBeforeAnythingStarts() {
    Run run = run("--node", "n1", "--period", "often");
    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err().lines()).containsExactly(
        "quotaflow collector: not a duration: 'often' (write e.g. 1s, 500ms, 2m or PT1S)");
  }

  @Test
  void theOpsAddressIsHttpHostAndPortAndTheOldNamesStillWorkWithAWarning() {
    StringWriter err = new StringWriter();
    Warnings warnings = new Warnings(new PrintWriter(err, true), "quotaflow collector");
    assertThat(parse(Map.of(), "--http-host", "127.0.0.1", "--http-port", "0").opsAddress(warnings))
        .isEqualTo(new OpsAddress("127.0.0.1", 0));
    assertThat(parse(Map.of("QUOTAFLOW_COLLECTOR_HTTP_PORT", "9202", "QUOTAFLOW_OPS_PORT", "1")).opsAddress(warnings))
        .isEqualTo(new OpsAddress("0.0.0.0", 9202));
    assertThat(parse(Map.of()).opsAddress(warnings)).isEqualTo(new OpsAddress("0.0.0.0", 9102));
    assertThat(err.toString()).isEmpty();

    assertThat(parse(Map.of(), "--ops-port", "9302", "--ops-host", "::1").opsAddress(warnings))
        .isEqualTo(new OpsAddress("::1", 9302));
    assertThat(parse(Map.of("QUOTAFLOW_OPS_PORT", "9402")).opsAddress(warnings).port()).isEqualTo(9402);
    assertThat(parse(Map.of("QUOTAFLOW_HTTP_HOST", "10.0.0.1")).opsAddress(warnings).host()).isEqualTo("10.0.0.1");
    assertThat(err.toString().lines()).containsExactly(
        "quotaflow collector: warning: --ops-host is deprecated; use --http-host",
        "quotaflow collector: warning: --ops-port is deprecated; use --http-port",
        "quotaflow collector: warning: QUOTAFLOW_OPS_PORT is deprecated; use QUOTAFLOW_COLLECTOR_HTTP_PORT",
        "quotaflow collector: warning: QUOTAFLOW_HTTP_HOST is deprecated; use QUOTAFLOW_COLLECTOR_HTTP_HOST");
  }

  private static CollectorCommand parse(Map<String, String> env, String... args) {
    CollectorCommand command = new CollectorCommand();
    new CommandLine(command).parseArgs(args);
    command.environment = Environment.of(env);
    return command;
  }
}
