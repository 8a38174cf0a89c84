package io.quotaflow.cgroups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProcSelfCgroupTest {

  private static final String HYBRID = """
      9:name=systemd:/
      8:pids:/
      6:freezer:/
      4:memory:/process_api/7c045cda
      2:cpuacct:/
      1:cpu:/
      0::/
      """;

  @Test
  void readsEachV1HierarchyAndTheV2Entry() {
    ProcSelfCgroup self = ProcSelfCgroup.parse(HYBRID);
    assertThat(self.v1PathByController())
        .containsEntry("memory", "/process_api/7c045cda")
        .containsEntry("cpu", "/")
        .doesNotContainKey("name=systemd");
    assertThat(self.v2Path()).isEqualTo("/");
  }

  @Test
  void splitsCoMountedControllers() {
    ProcSelfCgroup self = ProcSelfCgroup.parse("2:cpu,cpuacct:/batch/job\n0::/user.slice\n");
    assertThat(self.v1PathByController()).containsEntry("cpu", "/batch/job").containsEntry("cpuacct", "/batch/job");
    assertThat(self.v2Path()).isEqualTo("/user.slice");
  }

  @Test
  void defaultParentIsQuotaflowUnderTheOwnGroupOfEachHierarchy() throws Exception {
    CgroupParent parent = new CgroupParent.UnderOwnGroup("quotaflow", ProcSelfCgroup.parse(HYBRID));
    assertThat(parent.componentsFor(CgroupVersion.V1, List.of("memory")))
        .containsExactly("process_api", "7c045cda", "quotaflow");
    assertThat(parent.componentsFor(CgroupVersion.V1, List.of("cpu"))).containsExactly("quotaflow");
    assertThat(parent.componentsFor(CgroupVersion.V2, List.of())).containsExactly("quotaflow");
  }

  @Test
  void saysWhichHierarchyIsMissing() {
    CgroupParent parent = new CgroupParent.UnderOwnGroup("quotaflow", ProcSelfCgroup.parse("0::/\n"));
    assertThatThrownBy(() -> parent.componentsFor(CgroupVersion.V1, List.of("cpu")))
        .isInstanceOf(CgroupException.class)
        .hasMessageContaining("[cpu]");
  }

  @Test
  void fixedParentRefusesDotsAndTheRoot() throws Exception {
    assertThat(CgroupParent.at("/batch/quotaflow").componentsFor(CgroupVersion.V1, List.of("cpu")))
        .containsExactly("batch", "quotaflow");
    assertThatThrownBy(() -> CgroupParent.at("/batch/../etc")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CgroupParent.at("/./x")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CgroupParent.at("/")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new CgroupParent.UnderOwnGroup("a/b", ProcSelfCgroup.parse("0::/")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void readsThisProcess() throws Exception {
    // Every Linux process has an entry; which ones depends on the node.
    ProcSelfCgroup self = ProcSelfCgroup.readSelf();
    assertThat(self.v2Path() != null || !self.v1PathByController().isEmpty()).isTrue();
  }
}
