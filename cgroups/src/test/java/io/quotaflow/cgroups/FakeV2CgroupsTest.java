package io.quotaflow.cgroups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Formats of the v2 backend on a fake tree, with and without the cpu and memory controllers. */
class FakeV2CgroupsTest {

  @TempDir Path root;
  final TaskId job = TaskId.of("job1");

  @Test
  void readsV2CountersWithEveryController() throws Exception {
    PlainFileTree tree = PlainFileTree.v2(root, "qf", "cpu memory", "cpu memory").v2Task("qf", "job1", true, true)
        .file("unified/qf/job1/cpu.stat",
            "usage_usec 2500000\nuser_usec 2000000\nsystem_usec 500000\nnr_periods 9\nnr_throttled 4\nthrottled_usec 1234\n")
        .file("unified/qf/job1/cpu.max", "50000 100000\n")
        .file("unified/qf/job1/memory.current", "8192\n")
        .file("unified/qf/job1/memory.stat", "anon 4096\nfile 4096\nanon_thp 0\n")
        .file("unified/qf/job1/cgroup.freeze", "1\n");
    Cgroups cgroups = tree.open(CgroupLayout.AUTO, "/qf");
    assertThat(cgroups.version()).isEqualTo(CgroupVersion.V2);
    try (CgroupStatsReader reader = cgroups.openReader(job)) {
      CgroupStats stats = reader.read();
      // memory.peak is absent (older kernels): null, not an error.
      assertThat(stats).isEqualTo(new CgroupStats(2_500_000, 4L, 1234L, 8192L, 4096L, null,
          50_000L, 100_000L, FreezerState.FREEZING));
      tree.file("unified/qf/job1/cpu.max", "max 100000\n");
      tree.file("unified/qf/job1/cgroup.events", "populated 1\nfrozen 1\n");
      CgroupStats next = reader.read();
      assertThat(next.cpuQuotaUs()).isEqualTo(KernelCpuLimits.NO_QUOTA);
      assertThat(next.cpuQuotaCores()).isNull();
      assertThat(next.freezer()).isEqualTo(FreezerState.FROZEN);
    }
  }

  @Test
  void aTreeWithoutTheCpuControllerSaysSo() throws Exception {
    PlainFileTree tree = PlainFileTree.v2(root, "qf", "hugetlb", "").v2Task("qf", "job1", false, false);
    Cgroups cgroups = tree.open(CgroupLayout.V2, "/qf");
    assertThat(cgroups.cpuSettingsSupported()).isFalse();
    assertThatThrownBy(() -> cgroups.applyCpu(job, new CgroupCpuWrite(1000, 98, -1, 100000)))
        .isInstanceOf(CgroupUnsupportedException.class)
        .hasMessageContaining("has no cpu controller")
        .hasMessageContaining("cgroup.subtree_control");
    assertThatThrownBy(() -> cgroups.readCpu(job)).isInstanceOf(CgroupUnsupportedException.class);
    try (CgroupStatsReader reader = cgroups.openReader(job)) {
      CgroupStats stats = reader.read();
      assertThat(stats.nrThrottled()).isNull();
      assertThat(stats.throttledUsec()).isNull();
      assertThat(stats.cpuQuotaUs()).isNull();
      assertThat(stats.memoryBytes()).isNull();
      assertThat(stats.memoryAnonBytes()).isNull();
      assertThat(stats.freezer()).isEqualTo(FreezerState.THAWED);
    }
  }

  @Test
  void writesWeightAndCpuMaxOnlyWhenTheyDiffer() throws Exception {
    PlainFileTree tree = PlainFileTree.v2(root, "qf", "cpu", "cpu").v2Task("qf", "job1", true, false);
    Cgroups cgroups = tree.open(CgroupLayout.V2, "/qf");
    assertThat(cgroups.cpuSettingsSupported()).isTrue();

    CpuApplyResult limited = cgroups.applyCpu(job, new CgroupCpuWrite(2000, 195, 206000, 100000));
    assertThat(limited.writes()).containsExactly(
        new FileWrite("cpu.weight", "100", "195"),
        new FileWrite("cpu.max", "max 100000", "206000 100000"));
    assertThat(tree.read("unified/qf/job1/cpu.max")).isEqualTo("206000 100000");
    assertThat(limited.readBack()).isEqualTo(new CgroupCpuRead(null, 195L, 206000, 100000));

    CpuApplyResult unlimited = cgroups.applyCpu(job, new CgroupCpuWrite(2000, 195, -1, 100000));
    assertThat(unlimited.writes()).containsExactly(new FileWrite("cpu.max", "206000 100000", "max 100000"));
    assertThat(cgroups.applyCpu(job, new CgroupCpuWrite(2000, 195, -1, 100000)).outcome())
        .isEqualTo(WriteOutcome.UNCHANGED);
    assertThat(cgroups.readCpu(job).toWrite()).isEqualTo(new CgroupCpuWrite(1997, 195, -1, 100000));
  }

  @Test
  void aFreezeTheKernelNeverCompletesTimesOut() throws Exception {
    PlainFileTree tree = PlainFileTree.v2(root, "qf", "hugetlb", "").v2Task("qf", "job1", false, false);
    Cgroups cgroups = tree.open(CgroupLayout.V2, "/qf");
    FreezeResult result = cgroups.freeze(job, Duration.ofMillis(150));
    assertThat(result.outcome()).isEqualTo(FreezeOutcome.TIMED_OUT);
    assertThat(result.state()).isEqualTo(FreezerState.FREEZING);
    assertThat(result.waitedMs()).isGreaterThanOrEqualTo(150);
    assertThat(tree.read("unified/qf/job1/cgroup.freeze")).isEqualTo("1");
  }

  @Test
  void aFreezeWaitsForCgroupEventsToSayFrozen() throws Exception {
    PlainFileTree tree = PlainFileTree.v2(root, "qf", "hugetlb", "").v2Task("qf", "job1", false, false);
    Cgroups cgroups = tree.open(CgroupLayout.V2, "/qf");
    CompletableFuture<Void> kernel = CompletableFuture.runAsync(() -> {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      tree.file("unified/qf/job1/cgroup.events", "populated 1\nfrozen 1\n");
    });
    FreezeResult result = cgroups.freeze(job, Duration.ofSeconds(10));
    kernel.join();
    assertThat(result.outcome()).isEqualTo(FreezeOutcome.APPLIED);
    assertThat(result.state()).isEqualTo(FreezerState.FROZEN);
  }
}
