package io.quotaflow.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.CgroupParent;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class NodeOptionsTest {

  @Command(name = "node-process")
  static final class NodeProcess {
    @Mixin
    NodeOptions node;
  }

  private static NodeOptions parse(String... args) {
    NodeProcess process = new NodeProcess();
    new CommandLine(process).parseArgs(args);
    return process.node;
  }

  @Test
  void theParentIsANameUnderTheOwnGroupOrAnAbsolutePath() {
    assertThat(parse("--parent", "/batch/quotaflow").cgroupConfig().parent()).isEqualTo(CgroupParent.at("/batch/quotaflow"));
    assertThat(parse("--parent", " /a/b ").cgroupConfig().parent()).isEqualTo(CgroupParent.at("/a/b"));
    assertThat(parse("--parent", "jobs").cgroupConfig().parent()).isInstanceOf(CgroupParent.UnderOwnGroup.class)
        .extracting(p -> ((CgroupParent.UnderOwnGroup) p).name()).isEqualTo("jobs");
    assertThat(parse().cgroupConfig().parent()).extracting(p -> ((CgroupParent.UnderOwnGroup) p).name())
        .isEqualTo(CgroupParent.DEFAULT_NAME);
  }

  @Test
  void aRelativePathOrAnUnsafeParentIsAUsageError() {
    assertThatThrownBy(() -> parse("--parent", "a/b").cgroupConfig()).isInstanceOf(UsageException.class)
        .hasMessage("--parent: the parent is a group name under this process's own group, or an absolute path"
            + " starting with '/': \"a/b\"");
    assertThatThrownBy(() -> parse("--parent", "..").cgroupConfig()).isInstanceOf(UsageException.class)
        .hasMessageContaining("safe path component");
    assertThatThrownBy(() -> parse("--parent", "/a/../b").cgroupConfig()).isInstanceOf(UsageException.class)
        .hasMessageContaining("unsafe component");
  }

  @Test
  void theNodeIsTheFlagOrThisHostsShortName() {
    assertThat(parse("--node", "node-17").node()).isEqualTo("node-17");
    assertThat(parse().node()).isEqualTo(NodeName.ofThisHost().orElseThrow());
    // The demo's rule too: one default for every node process.
    assertThat(NodeOptions.nodeId(null, "--node")).isEqualTo(NodeName.ofThisHost().orElseThrow());
    assertThat(NodeOptions.nodeId(" n1 ", "--node")).isEqualTo("n1");
    assertThatThrownBy(() -> parse("--node", "../etc").node()).isInstanceOf(UsageException.class)
        .hasMessageStartingWith("--node: ");
  }

  @Test
  void rootAndLayoutHaveTheirDefaultsAndABadLayoutIsAUsageError() {
    assertThat(parse().cgroupConfig().root()).isEqualTo(Path.of("/sys/fs/cgroup"));
    assertThat(parse().cgroupConfig().layout()).isEqualTo(CgroupLayout.AUTO);
    assertThat(parse("--cgroup-root", "/tmp/cg", "--layout", "v1").cgroupConfig())
        .extracting(c -> c.root(), c -> c.layout()).containsExactly(Path.of("/tmp/cg"), CgroupLayout.V1);
    assertThatThrownBy(() -> parse("--layout", "v3").cgroupConfig()).isInstanceOf(UsageException.class)
        .hasMessage("cgroup layout must be v1, v2 or auto, not: v3");
  }
}
