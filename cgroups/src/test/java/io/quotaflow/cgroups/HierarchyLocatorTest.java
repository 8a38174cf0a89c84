package io.quotaflow.cgroups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HierarchyLocatorTest {

  @TempDir Path root;

  @Test
  void hybridWithoutCpuOnV2IsDetectedAsV1() throws Exception {
    PlainFileTree.v1(root, "qf");
    PlainFileTree.v2(root, "qf", "hugetlb", "");
    Cgroups cgroups = new PlainFileTree(root).open(CgroupLayout.AUTO, "/qf");
    assertThat(cgroups.version()).isEqualTo(CgroupVersion.V1);
  }

  @Test
  void hybridWithCpuOnV2IsDetectedAsV2() throws Exception {
    PlainFileTree.v1(root, "qf");
    new PlainFileTree(root).file("unified/cgroup.controllers", "cpu memory\n");
    assertThat(HierarchyLocator.locate(root, CgroupLayout.AUTO).version()).isEqualTo(CgroupVersion.V2);
  }

  @Test
  void unifiedOnlyRootIsV2() throws Exception {
    new PlainFileTree(root).file("cgroup.controllers", "cpu memory\n").file("cgroup.procs", "");
    HierarchyLocator.Located located = HierarchyLocator.locate(root, CgroupLayout.AUTO);
    assertThat(located.version()).isEqualTo(CgroupVersion.V2);
    assertThat(located.v2Root()).isEqualTo(root.toRealPath());
  }

  @Test
  void v2WithoutV1CpuIsV2EvenWithoutTheCpuController() throws Exception {
    PlainFileTree.v2(root, "qf", "hugetlb", "");
    assertThat(HierarchyLocator.locate(root, CgroupLayout.AUTO).version()).isEqualTo(CgroupVersion.V2);
  }

  @Test
  void anExplicitLayoutWins() throws Exception {
    PlainFileTree.v1(root, "qf");
    PlainFileTree.v2(root, "qf", "hugetlb", "");
    assertThat(new PlainFileTree(root).open(CgroupLayout.V2, "/qf").version()).isEqualTo(CgroupVersion.V2);
  }

  @Test
  void aMissingLayoutIsAClearError() {
    PlainFileTree.v2(root, "qf", "hugetlb", "");
    assertThatThrownBy(() -> HierarchyLocator.locate(root, CgroupLayout.V1))
        .isInstanceOf(CgroupException.class).hasMessageContaining("no cgroup v1 cpuacct hierarchy");
    assertThatThrownBy(() -> HierarchyLocator.locate(root.resolve("none"), CgroupLayout.AUTO))
        .isInstanceOf(CgroupException.class).hasMessageContaining("does not exist");
  }

  @Test
  void anEmptyRootIsAClearError() {
    assertThatThrownBy(() -> HierarchyLocator.locate(root, CgroupLayout.AUTO))
        .isInstanceOf(CgroupException.class).hasMessageContaining("no cgroup hierarchy found");
  }

  @Test
  void coMountedCpuAndCpuacctAreOneHierarchy() throws Exception {
    // The common systemd layout: cpu,cpuacct mounted once, cpu and cpuacct symlinks to it.
    PlainFileTree tree = new PlainFileTree(root).file("cpu,cpuacct/cgroup.procs", "")
        .file("memory/cgroup.procs", "").file("freezer/cgroup.procs", "");
    Files.createSymbolicLink(root.resolve("cpu"), root.resolve("cpu,cpuacct"));
    Files.createSymbolicLink(root.resolve("cpuacct"), root.resolve("cpu,cpuacct"));
    for (String dir : new String[] {"cpu,cpuacct/qf", "memory/qf", "freezer/qf"}) {
      Files.createDirectories(root.resolve(dir));
    }
    Cgroups cgroups = tree.open(CgroupLayout.AUTO, "/qf");
    assertThat(cgroups.describe()).contains("cpu,cpuacct at " + root.toRealPath().resolve("cpu,cpuacct/qf"));

    TaskId task = TaskId.of("job1");
    assertThat(cgroups.create(task)).isTrue();
    assertThat(root.resolve("cpu,cpuacct/qf/job1")).isDirectory();
    assertThat(root.resolve("memory/qf/job1")).isDirectory();
  }
}
