package io.quotaflow.cgroups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Formats, units and write order of the v1 backend on a fake tree. */
class FakeV1CgroupsTest {

  @TempDir Path root;
  PlainFileTree tree;
  Cgroups cgroups;
  final TaskId job = TaskId.of("job1");

  @BeforeEach
  void setUp() throws Exception {
    tree = PlainFileTree.v1(root, "qf").v1Task("qf", "job1");
    cgroups = tree.open(CgroupLayout.V1, "/qf");
  }

  @Test
  void readsCountersInSampleUnits() throws Exception {
    tree.file("cpuacct/qf/job1/cpuacct.usage", "2500000123\n")
        .file("cpu/qf/job1/cpu.stat", "nr_periods 40\nnr_throttled 7\nthrottled_time 3000999\n")
        .file("cpu/qf/job1/cpu.cfs_quota_us", "50000\n")
        .file("memory/qf/job1/memory.usage_in_bytes", "1048576\n")
        .file("memory/qf/job1/memory.stat", "cache 8192\nrss 4096\nrss_huge 0\ntotal_cache 8192\ntotal_rss 12288\n")
        .file("memory/qf/job1/memory.max_usage_in_bytes", "2097152\n")
        .file("freezer/qf/job1/freezer.state", "FREEZING\n");
    try (CgroupStatsReader reader = cgroups.openReader(job)) {
      CgroupStats stats = reader.read();
      assertThat(stats).isEqualTo(new CgroupStats(2_500_000, 7L, 3000L, 1_048_576L, 12_288L,
          2_097_152L, 50_000L, 100_000L, FreezerState.FREEZING));
      assertThat(stats.cpuQuotaCores()).isEqualTo(0.5);
    }
  }

  @Test
  void memoryStatIsRereadOnlyWhenTheUsageMovesOrAfterTheReadBound() throws Exception {
    tree.file("memory/qf/job1/memory.usage_in_bytes", "1000000\n")
        .file("memory/qf/job1/memory.stat", "rss 100\ntotal_rss 4096\n");
    try (CgroupStatsReader reader = cgroups.openReader(job, new MemoryStatRefresh(3, 0.01))) {
      assertThat(reader.read().memoryAnonBytes()).isEqualTo(4096);
      tree.file("memory/qf/job1/memory.stat", "rss 100\ntotal_rss 8192\n");
      assertThat(reader.read().memoryAnonBytes()).as("usage unchanged: the last value").isEqualTo(4096);
      tree.file("memory/qf/job1/memory.usage_in_bytes", "1005000\n");
      assertThat(reader.read().memoryAnonBytes()).as("usage moved 0.5 %").isEqualTo(4096);
      assertThat(reader.read().memoryAnonBytes()).as("third read since the refresh").isEqualTo(8192);
      tree.file("memory/qf/job1/memory.stat", "rss 100\ntotal_rss 12288\n");
      tree.file("memory/qf/job1/memory.usage_in_bytes", "1020000\n");
      assertThat(reader.read().memoryAnonBytes()).as("usage moved 1.5 %").isEqualTo(12288);
    }
    try (CgroupStatsReader everyRead = cgroups.openReader(job)) {
      assertThat(everyRead.read().memoryAnonBytes()).isEqualTo(12288);
      tree.file("memory/qf/job1/memory.stat", "rss 100\ntotal_rss 16384\n");
      assertThat(everyRead.read().memoryAnonBytes()).isEqualTo(16384);
    }
  }

  @Test
  void rereadsTheFilesItKeptOpen() throws Exception {
    try (CgroupStatsReader reader = cgroups.openReader(job)) {
      assertThat(reader.read().cpuUsageUsec()).isZero();
      tree.file("cpuacct/qf/job1/cpuacct.usage", "123456789000\n");
      assertThat(reader.read().cpuUsageUsec()).isEqualTo(123_456_789);
      tree.file("cpuacct/qf/job1/cpuacct.usage", "5000\n"); // shorter than before
      assertThat(reader.read().cpuUsageUsec()).isEqualTo(5);

      // Swap the path to a new file: a reader that reopened by path would see it; ours keeps
      // reading the file it opened.
      Path usage = tree.path("cpuacct/qf/job1/cpuacct.usage");
      Files.move(usage, usage.resolveSibling("old"));
      tree.file("cpuacct/qf/job1/cpuacct.usage", "999000\n");
      tree.file("cpuacct/qf/job1/old", "7000\n");
      assertThat(reader.read().cpuUsageUsec()).isEqualTo(7);
    }
  }

  @Test
  void aLargeMemoryStatGrowsTheBuffer() throws Exception {
    StringBuilder stat = new StringBuilder();
    for (int i = 0; i < 400; i++) {
      stat.append("padding_counter_").append(i).append(" 123456789\n");
    }
    stat.append("total_rss 777\n");
    tree.file("memory/qf/job1/memory.stat", stat.toString());
    try (CgroupStatsReader reader = cgroups.openReader(job)) {
      assertThat(reader.read().memoryAnonBytes()).isEqualTo(777);
      assertThat(reader.read().memoryAnonBytes()).isEqualTo(777);
    }
  }

  @Test
  void missingHierarchiesReadAsNullNotErrors() throws Exception {
    PlainFileTree bare = new PlainFileTree(root.resolve("bare"));
    bare.file("cpuacct/cgroup.procs", "").v1Group("cpuacct", "qf/job1");
    Cgroups onlyCpuacct = bare.open(CgroupLayout.AUTO, "/qf");
    try (CgroupStatsReader reader = onlyCpuacct.openReader(job)) {
      CgroupStats stats = reader.read();
      assertThat(stats.memoryBytes()).isNull();
      assertThat(stats.nrThrottled()).isNull();
      assertThat(stats.cpuQuotaCores()).isNull();
      assertThat(stats.freezer()).isNull();
    }
    assertThat(onlyCpuacct.freezerSupported()).isFalse();
    assertThat(onlyCpuacct.cpuSettingsSupported()).isFalse();
    assertThatThrownBy(() -> onlyCpuacct.freeze(job, Duration.ofSeconds(1)))
        .isInstanceOf(CgroupUnsupportedException.class).hasMessageContaining("no cgroup v1 freezer");
    assertThatThrownBy(() -> onlyCpuacct.applyCpu(job, new CgroupCpuWrite(1000, 98, -1, 100000)))
        .isInstanceOf(CgroupUnsupportedException.class);
  }

  @Test
  void aGroupMissingInOneHierarchyAtOpenIsPickedUpWhenItAppears() throws Exception {
    PlainFileTree late = PlainFileTree.v1(root.resolve("late"), "qf").v1Group("cpuacct", "qf/job1");
    Cgroups cg = late.open(CgroupLayout.V1, "/qf");
    try (CgroupStatsReader reader = cg.openReader(job)) {
      assertThat(reader.read().memoryBytes()).isNull();
      late.v1Group("memory", "qf/job1").file("memory/qf/job1/memory.usage_in_bytes", "4096\n");
      assertThat(reader.read().memoryBytes()).isEqualTo(4096);
    }
  }

  @Test
  void aMissingGroupIsGone() {
    assertThatThrownBy(() -> cgroups.openReader(TaskId.of("nope")))
        .isInstanceOf(CgroupGoneException.class).hasMessageContaining("nope");
    assertThatThrownBy(() -> cgroups.applyCpu(TaskId.of("nope"), new CgroupCpuWrite(1000, 98, -1, 100000)))
        .isInstanceOf(CgroupGoneException.class);
  }

  @Test
  void writesSharesThenPeriodThenQuota() throws Exception {
    CpuApplyResult result = cgroups.applyCpu(job, new CgroupCpuWrite(4000, 391, 412000, 50000));
    assertThat(result.outcome()).isEqualTo(WriteOutcome.APPLIED);
    assertThat(result.writes()).containsExactly(
        new FileWrite("cpu.shares", "1024", "4000"),
        new FileWrite("cpu.cfs_period_us", "100000", "50000"),
        new FileWrite("cpu.cfs_quota_us", "-1", "412000"));
    assertThat(result.readBack()).isEqualTo(new CgroupCpuRead(4000L, null, 412000, 50000));
    assertThat(tree.read("cpu/qf/job1/cpu.cfs_quota_us")).isEqualTo("412000");
    assertThat(result.quotaClamp()).isEmpty();
  }

  @Test
  void writesOnlyWhatDiffers() throws Exception {
    CgroupCpuWrite settings = new CgroupCpuWrite(2, 1, 20600, 100000);
    assertThat(cgroups.applyCpu(job, settings).writes()).extracting(FileWrite::file)
        .containsExactly("cpu.shares", "cpu.cfs_quota_us");
    CpuApplyResult again = cgroups.applyCpu(job, settings);
    assertThat(again.outcome()).isEqualTo(WriteOutcome.UNCHANGED);
    assertThat(again.writes()).isEmpty();
    assertThat(again.readBack()).isEqualTo(new CgroupCpuRead(2L, null, 20600, 100000));

    CpuApplyResult unlimited = cgroups.applyCpu(job, new CgroupCpuWrite(2, 1, KernelCpuLimits.NO_QUOTA, 100000));
    assertThat(unlimited.writes()).containsExactly(new FileWrite("cpu.cfs_quota_us", "20600", "-1"));
  }

  @Test
  void comparesWithTheKernelNormalizedShares() throws Exception {
    // The kernel would clamp 1 to 2; a plain file does not, which the read-back check catches.
    assertThatThrownBy(() -> cgroups.applyCpu(job, new CgroupCpuWrite(1, 1, -1, 100000)))
        .isInstanceOfSatisfying(ReadBackMismatchException.class, e -> {
          assertThat(e.expected()).isEqualTo("2");
          assertThat(e.readBack()).isEqualTo("1");
          assertThat(e.file()).hasFileName("cpu.shares");
        });
    // Already holding the normalized value counts as unchanged.
    tree.file("cpu/qf/job1/cpu.shares", "262144\n");
    assertThat(cgroups.applyCpu(job, new CgroupCpuWrite(300_000, 10_000, -1, 100000)).outcome())
        .isEqualTo(WriteOutcome.UNCHANGED);
  }

  @Test
  void clampsTheQuotaToTheParentsRatio() throws Exception {
    tree.file("cpu/qf/cpu.cfs_quota_us", "100000\n"); // the parent: 1 core
    CpuApplyResult same = cgroups.applyCpu(job, new CgroupCpuWrite(4000, 391, 412000, 100000));
    assertThat(same.readBack().quotaUs()).isEqualTo(100000);
    assertThat(same.quotaClamp()).contains(new QuotaClamp(412000, 100000, 100000));

    // Ratios, not raw quotas: at half the period, 1 core is 50000 us.
    CpuApplyResult half = cgroups.applyCpu(job, new CgroupCpuWrite(4000, 391, 412000, 50000));
    assertThat(half.readBack()).isEqualTo(new CgroupCpuRead(4000L, null, 50000, 50000));
    assertThat(half.quotaClamp()).contains(new QuotaClamp(412000, 50000, 50000));

    // Below the parent's limit nothing is clamped.
    assertThat(cgroups.applyCpu(job, new CgroupCpuWrite(4000, 391, 20000, 50000)).quotaClamp()).isEmpty();
  }

  @Test
  void clampsTheQuotaToAGrandparentWhenTheParentHasNone() throws Exception {
    tree.file("cpu/cpu.cfs_quota_us", "150000\n");
    assertThat(cgroups.applyCpu(job, new CgroupCpuWrite(4000, 391, 412000, 100000)).readBack().quotaUs())
        .isEqualTo(150000);
  }

  @Test
  void freezesAndThawsThroughFreezerState() throws Exception {
    FreezeResult frozen = cgroups.freeze(job, Duration.ofSeconds(1));
    assertThat(frozen.outcome()).isEqualTo(FreezeOutcome.APPLIED);
    assertThat(frozen.state()).isEqualTo(FreezerState.FROZEN);
    assertThat(tree.read("freezer/qf/job1/freezer.state")).isEqualTo("FROZEN");
    assertThat(cgroups.freeze(job, Duration.ofSeconds(1)).outcome()).isEqualTo(FreezeOutcome.UNCHANGED);

    assertThat(cgroups.thaw(job, Duration.ofSeconds(1)).outcome()).isEqualTo(FreezeOutcome.APPLIED);
    assertThat(tree.read("freezer/qf/job1/freezer.state")).isEqualTo("THAWED");
    assertThat(cgroups.thaw(job, Duration.ofSeconds(1)).outcome()).isEqualTo(FreezeOutcome.UNCHANGED);
  }

  @Test
  void discoversValidGroupsAndSaysWhatItSkipped() throws Exception {
    tree.v1Group("cpuacct", "qf/job2").v1Group("cpuacct", "qf/.hidden").v1Group("cpuacct", "qf/has space");
    Files.createSymbolicLink(tree.path("cpuacct/qf/linked"), tree.path("cpuacct/qf/job2"));
    Discovery found = cgroups.discover();
    assertThat(found.tasks()).containsExactly(TaskId.of("job1"), TaskId.of("job2"));
    assertThat(found.skipped()).containsExactlyInAnyOrder(
        "\".hidden\": not a valid task id", "\"has space\": not a valid task id",
        "\"linked\": symbolic link");
  }

  @Test
  void discoveryUnderAMissingParentIsEmpty() throws Exception {
    Cgroups elsewhere = tree.open(CgroupLayout.V1, "/not-yet");
    assertThat(elsewhere.discover().tasks()).isEmpty();
  }

  @Test
  void createsAttachesAndRemovesInEveryHierarchy() throws Exception {
    TaskId fresh = TaskId.of("fresh");
    assertThat(cgroups.create(fresh)).isTrue();
    assertThat(cgroups.create(fresh)).isFalse();
    for (String controller : HierarchyLocator.V1_CONTROLLERS) {
      assertThat(tree.path(controller + "/qf/fresh")).isDirectory();
    }
    // On cgroupfs cgroup.procs exists in every group; a plain mkdir has none, so add them.
    for (String controller : HierarchyLocator.V1_CONTROLLERS) {
      tree.file(controller + "/qf/fresh/cgroup.procs", "");
    }
    cgroups.attach(fresh, 4242);
    for (String controller : HierarchyLocator.V1_CONTROLLERS) {
      assertThat(tree.read(controller + "/qf/fresh/cgroup.procs")).isEqualTo("4242");
      Files.delete(tree.path(controller + "/qf/fresh/cgroup.procs"));
    }
    assertThat(cgroups.remove(fresh)).isTrue();
    assertThat(cgroups.exists(fresh)).isFalse();
    assertThat(cgroups.remove(fresh)).isFalse();
  }

  @Test
  void createsAndRemovesTheParent() throws Exception {
    Cgroups other = tree.open(CgroupLayout.V1, "/other");
    assertThat(other.createParent()).isTrue();
    assertThat(tree.path("memory/other")).isDirectory();
    assertThat(other.createParent()).isFalse();
    assertThat(other.removeParent()).isTrue();
    assertThat(tree.path("memory/other")).doesNotExist();
  }

  @Test
  void aParentWhoseParentIsMissingIsAClearError() throws Exception {
    Cgroups deep = tree.open(CgroupLayout.V1, "/missing/qf");
    assertThatThrownBy(deep::createParent).isInstanceOf(CgroupException.class)
        .hasMessageContaining("is not an existing directory");
  }
}
