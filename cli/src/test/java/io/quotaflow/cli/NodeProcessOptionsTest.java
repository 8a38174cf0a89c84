package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.collector.CollectorCommand;
import io.quotaflow.enforcer.EnforcerCommand;
import io.quotaflow.process.NodeName;
import io.quotaflow.process.NodeOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The collector and the enforcer of a node take its id and cgroup flags the same way: they must agree on both. */
class NodeProcessOptionsTest {

  private static NodeOptions nodeOptions(Object command, String... args) {
    CommandLine line = new CommandLine(command);
    line.parseArgs(args);
    return (NodeOptions) line.getCommandSpec().mixins().get("node").userObject();
  }

  private static List<NodeOptions> both(String... args) {
    return List.of(nodeOptions(new CollectorCommand(), args), nodeOptions(new EnforcerCommand(), args));
  }

  @Test
  void aNameAndAnAbsolutePathAreTheSameParentInBoth() {
    for (String parent : List.of("/a/b", "a", "quotaflow")) {
      List<CgroupConfig> configs = both("--parent", parent, "--cgroup-root", "/tmp/cg", "--layout", "v2").stream()
          .map(NodeOptions::cgroupConfig).toList();
      assertThat(configs.get(0)).as("--parent " + parent).isEqualTo(configs.get(1));
    }
  }

  @Test
  void withoutNodeBothTakeThisHostsShortName() {
    String host = NodeName.ofThisHost().orElseThrow();
    assertThat(both()).extracting(NodeOptions::node).containsExactly(host, host);
  }

  @Test
  void aRelativePathIsRefusedByBothWithTheSameLineAndExitCode2() {
    List<String> lines = new java.util.ArrayList<>();
    for (String command : List.of("collector", "enforcer")) {
      StringWriter err = new StringWriter();
      CommandLine line = new CommandLine(new QuotaflowCli()).setErr(new PrintWriter(err, true));
      assertThat(QuotaflowCli.execute(line, command, "--node", "n1", "--parent", "a/b")).isEqualTo(2);
      assertThat(err.toString().lines()).singleElement().asString().startsWith("quotaflow " + command + ": --parent: ");
      lines.add(err.toString().substring(("quotaflow " + command).length()));
    }
    assertThat(lines.get(0)).isEqualTo(lines.get(1));
  }
}
