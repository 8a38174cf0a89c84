package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quotaflow.testharness.ExternalCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docker-compose.yml and its local override: valid for the tool, and configured by documented variables. */
class ComposeFilesTest {
  private static final Path ROOT = Path.of("..");
  /** An environment entry of a service: `      QUOTAFLOW_X: value` (interpolations such as ${QUOTAFLOW_IMAGE} are not). */
  private static final Pattern VARIABLE = Pattern.compile("(?m)^\\s+(QUOTAFLOW_[A-Z_]+):");

  @Test
  void composeValidatesBothFiles() throws Exception {
    assumeTrue(ExternalCommand.available("docker-compose"), "docker-compose is not installed: nothing validates the file here");
    for (List<String> files : List.of(
        List.of("-f", "docker-compose.yml"),
        List.of("-f", "docker-compose.yml", "-f", "docker-compose.local.yml"))) {
      List<String> command = new java.util.ArrayList<>(List.of("docker-compose"));
      command.addAll(files);
      command.addAll(List.of("config", "-q"));
      ExternalCommand.Result result = ExternalCommand.run(ROOT, Duration.ofSeconds(60), command);
      assertThat(result.exitCode()).as("%s\n%s", command, result.describe()).isZero();
    }
  }

  @Test
  void everyVariableTheStackSetsIsOneOperationsDocuments() throws Exception {
    String compose = Files.readString(ROOT.resolve("docker-compose.yml"));
    String operations = Files.readString(ROOT.resolve("docs/operations.md"));
    Set<String> set = new TreeSet<>();
    Matcher m = VARIABLE.matcher(compose);
    while (m.find()) {
      set.add(m.group(1));
    }
    assertThat(set).contains("QUOTAFLOW_BOOTSTRAP", "QUOTAFLOW_REGISTRY", "QUOTAFLOW_NODE",
        "QUOTAFLOW_STREAMS_HTTP_PORT", "QUOTAFLOW_COLLECTOR_HTTP_PORT", "QUOTAFLOW_ENFORCER_HTTP_PORT");
    assertThat(set).allSatisfy(name -> assertThat(operations).as("docs/operations.md names %s", name)
        .contains("| `" + name + "` |"));
  }

  @Test
  void prometheusScrapesTheHttpPortEachComponentIsGiven() throws Exception {
    String compose = Files.readString(ROOT.resolve("docker-compose.yml"));
    String prometheus = Files.readString(ROOT.resolve("deploy/prometheus/prometheus.yml"));
    for (String component : List.of("STREAMS", "COLLECTOR", "ENFORCER")) {
      Matcher port = Pattern.compile("QUOTAFLOW_" + component + "_HTTP_PORT: (\\d+)").matcher(compose);
      assertThat(port.find()).as("compose sets QUOTAFLOW_%s_HTTP_PORT", component).isTrue();
      assertThat(prometheus).contains(port.group(1));
    }
    // Every replica of `--scale streams=N` is found by DNS, not listed.
    assertThat(prometheus).contains("dns_sd_configs").contains("names: [streams]");
  }
}
