package io.quotaflow.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.CgroupParent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which mode the demo runs in, and that it says why. */
class DemoCgroupsTest {

  private static final List<DemoTask> ONE = List.of(new DemoTask("demo-idle", Workload.Shape.IDLE, 1.0, DemoSpecs.RELAXED_POOL));

  @Test
  void simulateIsTakenAtItsWordWithoutTouchingRealCgroups() throws Exception {
    CgroupConfig unusable = new CgroupConfig(Path.of("/no/such/root"), CgroupLayout.AUTO, CgroupParent.at("/quotaflow"));
    try (DemoCgroups cgroups = DemoCgroups.open(true, unusable, ONE)) {
      assertThat(cgroups).isInstanceOf(DemoCgroups.Simulated.class);
      assertThat(cgroups.modeLine()).startsWith("simulated cgroup tree at ").endsWith("(--simulate)");
      assertThat(cgroups.pids()).isEmpty();
    }
  }

  @Test
  void cgroupsThatCannotBeUsedFallBackToTheSimulatedTreeAndSayWhy() throws Exception {
    CgroupConfig unusable = new CgroupConfig(Path.of("/no/such/root"), CgroupLayout.AUTO, CgroupParent.at("/quotaflow"));
    Path root;
    try (DemoCgroups cgroups = DemoCgroups.open(false, unusable, ONE)) {
      assertThat(cgroups.modeLine()).contains("cgroups not writable here: cgroup root /no/such/root does not exist");
      root = ((DemoCgroups.Simulated) cgroups).root();
      assertThat(cgroups.config().root()).isEqualTo(root);
      assertThat(root.resolve("cpuacct/quotaflow/demo-idle/cpuacct.usage")).exists();
    }
    assertThat(Files.exists(root)).isFalse();
  }
}
