package io.quotaflow.cgroups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DESIGN "Safety" on a fake tree: nothing outside a direct child of the parent is touched. */
class SafetyTest {

  @TempDir Path root;
  PlainFileTree tree;
  Cgroups cgroups;
  final TaskId evil = TaskId.of("evil");

  @BeforeEach
  void setUp() throws Exception {
    tree = PlainFileTree.v1(root, "qf").v1Task("qf", "job1");
    // A victim outside the parent, shaped like a group, and a symlink to it under the parent in
    // every hierarchy.
    for (String controller : HierarchyLocator.V1_CONTROLLERS) {
      tree.v1Group(controller, "victim");
      tree.file(controller + "/victim/cgroup.procs", "");
      Files.createSymbolicLink(tree.path(controller + "/qf/evil"), tree.path(controller + "/victim"));
    }
    cgroups = tree.open(CgroupLayout.V1, "/qf");
  }

  @Test
  void aSymlinkedGroupIsNeverFollowed() throws Exception {
    CgroupCpuWrite settings = new CgroupCpuWrite(2, 1, 20600, 100000);
    assertThatThrownBy(() -> cgroups.applyCpu(evil, settings))
        .isInstanceOf(UnsafeCgroupPathException.class).hasMessageContaining("symbolic link");
    assertThatThrownBy(() -> cgroups.openReader(evil)).isInstanceOf(UnsafeCgroupPathException.class);
    assertThatThrownBy(() -> cgroups.readCpu(evil)).isInstanceOf(UnsafeCgroupPathException.class);
    assertThatThrownBy(() -> cgroups.freeze(evil, Duration.ofMillis(10)))
        .isInstanceOf(UnsafeCgroupPathException.class);
    assertThatThrownBy(() -> cgroups.attach(evil, 4242)).isInstanceOf(UnsafeCgroupPathException.class);
    assertThatThrownBy(() -> cgroups.create(evil)).isInstanceOf(UnsafeCgroupPathException.class);
    assertThatThrownBy(() -> cgroups.remove(evil)).isInstanceOf(UnsafeCgroupPathException.class);
    assertThatThrownBy(() -> cgroups.exists(evil)).isInstanceOf(UnsafeCgroupPathException.class);

    assertThat(tree.read("cpu/victim/cpu.shares")).isEqualTo("1024\n");
    assertThat(tree.read("cpu/victim/cpu.cfs_quota_us")).isEqualTo("-1\n");
    assertThat(tree.read("freezer/victim/freezer.state")).isEqualTo("THAWED\n");
    for (String controller : HierarchyLocator.V1_CONTROLLERS) {
      assertThat(tree.read(controller + "/victim/cgroup.procs")).isEmpty();
      assertThat(Files.isSymbolicLink(tree.path(controller + "/qf/evil"))).isTrue();
    }
    assertThat(cgroups.discover().skipped()).containsExactly("\"evil\": symbolic link");
  }

  @Test
  void aSymlinkedFileInsideAGroupIsNotFollowed() throws Exception {
    Path shares = tree.path("cpu/qf/job1/cpu.shares");
    Files.delete(shares);
    Files.createSymbolicLink(shares, tree.path("cpu/victim/cpu.shares"));
    assertThatThrownBy(() -> cgroups.applyCpu(TaskId.of("job1"), new CgroupCpuWrite(2, 1, -1, 100000)))
        .isInstanceOf(UnsafeCgroupPathException.class).hasMessageContaining("cpu.shares is a symbolic link");
    assertThat(tree.read("cpu/victim/cpu.shares")).isEqualTo("1024\n");

    Path usage = tree.path("cpuacct/qf/job1/cpuacct.usage");
    Files.delete(usage);
    Files.createSymbolicLink(usage, tree.path("cpuacct/victim/cpuacct.usage"));
    assertThatThrownBy(() -> cgroups.openReader(TaskId.of("job1")))
        .isInstanceOf(UnsafeCgroupPathException.class).hasMessageContaining("cpuacct.usage is a symbolic link");
  }

  @Test
  void aParentReachedThroughASymlinkIsRefused() throws Exception {
    for (String controller : HierarchyLocator.V1_CONTROLLERS) {
      Files.createSymbolicLink(tree.path(controller + "/linkedqf"), tree.path(controller + "/qf"));
    }
    Cgroups linked = tree.open(CgroupLayout.V1, "/linkedqf");
    assertThatThrownBy(() -> linked.applyCpu(TaskId.of("job1"), new CgroupCpuWrite(2, 1, -1, 100000)))
        .isInstanceOf(UnsafeCgroupPathException.class).hasMessageContaining("without symlinks");
    assertThatThrownBy(linked::discover).isInstanceOf(UnsafeCgroupPathException.class);
    assertThatThrownBy(() -> linked.create(TaskId.of("job9"))).isInstanceOf(UnsafeCgroupPathException.class);
    assertThat(tree.path("cpu/qf/job9")).doesNotExist();
  }

  @Test
  void onlyDirectChildrenOfTheParentAreTasks() throws Exception {
    Path parent = root.toRealPath().resolve("cpu/qf");
    assertThat(cgroups.taskIdOf(parent.resolve("job1"))).isEqualTo(TaskId.of("job1"));
    assertThat(cgroups.taskIdOf(root.toRealPath().resolve("memory/qf/job1"))).isEqualTo(TaskId.of("job1"));
    for (Path notAChild : List.of(
        parent,
        parent.resolve("job1/nested"),
        parent.resolve(".."),
        parent.resolve("."),
        parent.resolve("../qf/job1"),
        parent.resolve("./job1"),
        parent.resolve("a".repeat(129)),
        parent.resolve(".hidden"),
        root.toRealPath().resolve("cpu/other/job1"),
        root.toRealPath().resolve("cpu/victim"))) {
      assertThatThrownBy(() -> cgroups.taskIdOf(notAChild))
          .as("%s", notAChild)
          .isInstanceOf(UnsafeCgroupPathException.class)
          .hasMessageContaining("not a direct child");
    }
  }

  @Test
  void onlyAllowlistedFilesAreEverWritten() throws Exception {
    assertThat(GroupTree.WRITABLE_FILES).isEqualTo(Set.of("cpu.shares", "cpu.cfs_period_us",
        "cpu.cfs_quota_us", "cpu.weight", "cpu.max", "freezer.state", "cgroup.freeze", "cgroup.procs"));
    Path parent = root.toRealPath().resolve("memory/qf");
    Hierarchy memory = new Hierarchy(root.toRealPath().resolve("memory"), List.of("memory"), parent);
    GroupTree groups = new GroupTree(List.of(memory), memory);
    Path job = groups.groupDir(memory, TaskId.of("job1"));
    tree.file("memory/qf/job1/memory.limit_in_bytes", "9223372036854771712\n");

    for (String file : List.of("memory.limit_in_bytes", "../cpu.shares", "notify_on_release", "tasks")) {
      assertThatThrownBy(() -> groups.write(job, file, "1"))
          .isInstanceOf(UnsafeCgroupPathException.class).hasMessageContaining("allowlist");
    }
    assertThat(tree.read("memory/qf/job1/memory.limit_in_bytes")).isEqualTo("9223372036854771712\n");
    // An allowlisted name is still refused outside a direct child of the parent.
    assertThatThrownBy(() -> groups.write(parent, "cgroup.procs", "1"))
        .isInstanceOf(UnsafeCgroupPathException.class);
    assertThatThrownBy(() -> groups.write(root.toRealPath().resolve("memory/victim"), "cgroup.procs", "1"))
        .isInstanceOf(UnsafeCgroupPathException.class);
    assertThat(tree.read("memory/victim/cgroup.procs")).isEmpty();
    // And a symlink under the parent, even when the caller hands it over directly.
    assertThatThrownBy(() -> groups.write(parent.resolve("evil"), "cgroup.procs", "1"))
        .isInstanceOf(UnsafeCgroupPathException.class).hasMessageContaining("symbolic link");
    assertThat(tree.read("memory/victim/cgroup.procs")).isEmpty();
  }
}
