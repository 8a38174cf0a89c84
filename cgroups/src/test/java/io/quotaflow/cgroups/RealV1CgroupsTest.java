package io.quotaflow.cgroups;

import static io.quotaflow.cgroups.Sandboxes.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The kernel's behaviour on this node's cgroup v1 hierarchies: our own groups under a unique
 * test parent, our own child processes, everything removed afterwards. Skipped with the reason
 * where there is no writable v1 tree.
 */
class RealV1CgroupsTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);

  CgroupSandbox sandbox;
  Cgroups cgroups;

  @BeforeEach
  void openSandbox() throws IOException {
    sandbox = Sandboxes.openOrSkip(CgroupLayout.V1);
    cgroups = sandbox.cgroups();
    assertThat(cgroups.version()).isEqualTo(CgroupVersion.V1);
    assertThat(cgroups.cpuSettingsSupported()).isTrue();
    assertThat(cgroups.freezerSupported()).isTrue();
  }

  @AfterEach
  void cleanUp() throws Exception {
    if (sandbox != null) {
      sandbox.close();
    }
  }

  static CgroupStats read(CgroupStatsReader reader) {
    try {
      return reader.read();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void childGroupCountFollowsTheKernelsSubdirectoryCount() throws Exception {
    assertThat(cgroups.childGroupCount()).isZero();
    TaskId first = sandbox.group("first");
    sandbox.group("second");
    assertThat(cgroups.childGroupCount()).isEqualTo(2);
    cgroups.remove(first);
    assertThat(cgroups.childGroupCount()).isEqualTo(1);
  }

  @Test
  void aBusyProcessAccumulatesCpuAndAnIdleOneDoesNot() throws Exception {
    TaskId busy = sandbox.group("busy");
    TaskId idle = sandbox.group("idle");
    Process busyProcess = sandbox.busy(busy);
    sandbox.idle(idle);
    try (CgroupStatsReader busyReader = cgroups.openReader(busy);
        CgroupStatsReader idleReader = cgroups.openReader(idle)) {
      assertThat(eventually(PATIENCE, () -> read(busyReader).cpuUsageUsec() >= 300_000))
          .as("busy group reaches 0.3 s of CPU").isTrue();
      CgroupStats idleStats = read(idleReader);
      assertThat(idleStats.cpuUsageUsec()).isLessThan(100_000);
      assertThat(idleStats.memoryBytes()).isNotNull();
      assertThat(idleStats.memoryPeakBytes()).isNotNull();
      assertThat(idleStats.freezer()).isEqualTo(FreezerState.THAWED);
      assertThat(idleStats.cpuQuotaUs()).isEqualTo(KernelCpuLimits.NO_QUOTA);
      assertThat(idleStats.cpuPeriodUs()).isNull();
      assertThat(idleStats.cpuQuotaCores()).isNull();
      assertThat(idleStats.nrThrottled()).isZero();
    }
    // Attached to every hierarchy: cpu and cpuacct are separate mounts here.
    String procCgroup = Files.readString(Path.of("/proc/" + busyProcess.pid() + "/cgroup"));
    for (String controller : HierarchyLocator.V1_CONTROLLERS) {
      assertThat(procCgroup.lines().filter(l -> l.split(":")[1].equals(controller)))
          .as("%s line of /proc/pid/cgroup", controller)
          .singleElement().asString().endsWith("/" + sandbox.parentName() + "/busy");
    }
    assertThat(cgroups.discover().tasks()).containsExactly(busy, idle);
  }

  @Test
  void theKernelClampsSharesAsModelled() throws Exception {
    TaskId task = sandbox.group("shares");
    CpuApplyResult low = cgroups.applyCpu(task, new CgroupCpuWrite(1, 1, -1, 100_000));
    assertThat(low.outcome()).isEqualTo(WriteOutcome.APPLIED);
    assertThat(low.writes()).containsExactly(new FileWrite("cpu.shares", "1024", "1"));
    assertThat(low.readBack().shares()).isEqualTo(2);
    assertThat(cgroups.applyCpu(task, new CgroupCpuWrite(2, 1, -1, 100_000)).outcome())
        .isEqualTo(WriteOutcome.UNCHANGED);

    CpuApplyResult high = cgroups.applyCpu(task, new CgroupCpuWrite(1_000_000, 10_000, -1, 100_000));
    assertThat(high.readBack().shares()).isEqualTo(262_144);
    assertThat(cgroups.applyCpu(task, new CgroupCpuWrite(262_144, 10_000, -1, 100_000)).outcome())
        .isEqualTo(WriteOutcome.UNCHANGED);
  }

  @Test
  void aQuotaThrottlesABusyProcess() throws Exception {
    TaskId task = sandbox.group("throttled");
    CpuApplyResult applied = cgroups.applyCpu(task, new CgroupCpuWrite(1000, 98, 10_000, 100_000));
    assertThat(applied.readBack()).isEqualTo(new CgroupCpuRead(1000L, null, 10_000, 100_000));
    assertThat(cgroups.readCpu(task).quotaCores()).isEqualTo(0.1);
    sandbox.busy(task);
    try (CgroupStatsReader reader = cgroups.openReader(task)) {
      assertThat(eventually(PATIENCE, () -> read(reader).nrThrottled() >= 3)).isTrue();
      CgroupStats stats = read(reader);
      assertThat(stats.throttledUsec()).isPositive();
      assertThat(stats.cpuQuotaCores()).isEqualTo(0.1);
      assertThat(stats.cpuPeriodUs()).isEqualTo(100_000);
    }
  }

  @Test
  void outOfRangeValuesAreKernelErrorsNamingFileAndValue() throws Exception {
    TaskId task = sandbox.group("range");
    assertThatThrownBy(() -> cgroups.applyCpu(task, new CgroupCpuWrite(1000, 98, -1, 2_000_000)))
        .isInstanceOfSatisfying(CgroupWriteException.class, e -> {
          assertThat(e.error()).isEqualTo(KernelError.EINVAL);
          assertThat(e.file()).hasFileName("cpu.cfs_period_us");
          assertThat(e.value()).isEqualTo("2000000");
          assertThat(e.getMessage()).contains("Invalid argument");
        });
    assertThatThrownBy(() -> cgroups.applyCpu(task, new CgroupCpuWrite(1000, 98, 500, 100_000)))
        .isInstanceOfSatisfying(CgroupWriteException.class, e -> {
          assertThat(e.error()).isEqualTo(KernelError.EINVAL);
          assertThat(e.file()).hasFileName("cpu.cfs_quota_us");
          assertThat(e.value()).isEqualTo("500");
        });
    // A failed quota does not leave a new period behind with the old quota.
    assertThatThrownBy(() -> cgroups.applyCpu(task, new CgroupCpuWrite(1000, 98, 500, 50_000)))
        .isInstanceOf(CgroupWriteException.class);
    assertThat(cgroups.readCpu(task)).isEqualTo(new CgroupCpuRead(1000L, null, -1, 100_000));
  }

  @Test
  void theQuotaIsClampedToTheParentsAndThePeriodOrderAdapts() throws Exception {
    TaskId task = sandbox.group("clamped");
    Path parentQuota = sandbox.parentDir("cpu").resolve("cpu.cfs_quota_us");
    KernfsIo.write(parentQuota, "100000"); // our own test parent: 1 core at 100 ms
    try {
      // Unclamped, the kernel refuses a child above its parent.
      Path childQuota = sandbox.parentDir("cpu").resolve("clamped/cpu.cfs_quota_us");
      assertThatThrownBy(() -> KernfsIo.write(childQuota, "412000"))
          .isInstanceOfSatisfying(CgroupWriteException.class,
              e -> assertThat(e.error()).isEqualTo(KernelError.EINVAL));

      CpuApplyResult clamped = cgroups.applyCpu(task, new CgroupCpuWrite(4000, 391, 412_000, 100_000));
      assertThat(clamped.readBack()).isEqualTo(new CgroupCpuRead(4000L, null, 100_000, 100_000));
      assertThat(clamped.quotaClamp()).contains(new QuotaClamp(412_000, 100_000, 100_000));

      // Halving the period first would make 100000/50000 = 2 cores > 1: EINVAL, so quota first.
      CpuApplyResult shorter = cgroups.applyCpu(task, new CgroupCpuWrite(4000, 391, 50_000, 50_000));
      assertThat(shorter.writes()).extracting(FileWrite::file)
          .containsExactly("cpu.cfs_quota_us", "cpu.cfs_period_us");
      assertThat(shorter.readBack()).isEqualTo(new CgroupCpuRead(4000L, null, 50_000, 50_000));

      // Growing both: the quota first would be 200000/50000 = 4 cores; period first works.
      CpuApplyResult longer = cgroups.applyCpu(task, new CgroupCpuWrite(4000, 391, 200_000, 200_000));
      assertThat(longer.writes()).extracting(FileWrite::file)
          .containsExactly("cpu.cfs_period_us", "cpu.cfs_quota_us");
      assertThat(longer.readBack()).isEqualTo(new CgroupCpuRead(4000L, null, 200_000, 200_000));
    } finally {
      KernfsIo.write(parentQuota, "-1");
    }
  }

  @Test
  void aFrozenProcessUsesNoCpuUntilThawed() throws Exception {
    TaskId task = sandbox.group("frozen");
    sandbox.busy(task);
    try (CgroupStatsReader reader = cgroups.openReader(task)) {
      assertThat(eventually(PATIENCE, () -> read(reader).cpuUsageUsec() > 50_000)).isTrue();

      FreezeResult frozen = cgroups.freeze(task, Duration.ofSeconds(10));
      assertThat(frozen.outcome()).isEqualTo(FreezeOutcome.APPLIED);
      assertThat(frozen.state()).isEqualTo(FreezerState.FROZEN);
      assertThat(cgroups.freezerState(task)).isEqualTo(FreezerState.FROZEN);
      CgroupStats before = reader.read();
      assertThat(before.freezer()).isEqualTo(FreezerState.FROZEN);
      Thread.sleep(500); // the one place a test must let time pass: to see nothing happen
      assertThat(reader.read().cpuUsageUsec()).isEqualTo(before.cpuUsageUsec());
      assertThat(cgroups.freeze(task, Duration.ofSeconds(10)).outcome()).isEqualTo(FreezeOutcome.UNCHANGED);

      FreezeResult thawed = cgroups.thaw(task, Duration.ofSeconds(10));
      assertThat(thawed.outcome()).isEqualTo(FreezeOutcome.APPLIED);
      assertThat(thawed.state()).isEqualTo(FreezerState.THAWED);
      assertThat(eventually(PATIENCE,
          () -> read(reader).cpuUsageUsec() > before.cpuUsageUsec() + 50_000)).isTrue();
      assertThat(cgroups.thaw(task, Duration.ofSeconds(10)).outcome()).isEqualTo(FreezeOutcome.UNCHANGED);
    }
  }

  @Test
  void memoryCountersFollowAnAllocatingProcess() throws Exception {
    TaskId task = sandbox.group("memory");
    // Holds ~16 MB of anonymous memory in a shell variable, then waits.
    sandbox.spawnShell(task, "x=$(head -c 16000000 /dev/zero | tr '\\0' a); read wait");
    try (CgroupStatsReader reader = cgroups.openReader(task)) {
      assertThat(eventually(PATIENCE, () -> read(reader).memoryAnonBytes() >= 16_000_000)).isTrue();
      CgroupStats stats = reader.read();
      assertThat(stats.memoryBytes()).isGreaterThanOrEqualTo(16_000_000);
      assertThat(stats.memoryPeakBytes()).isGreaterThanOrEqualTo(stats.memoryBytes());
    }
  }

  /** A frozen task cannot die until thawed: a SIGKILL alone leaves it in the group (the bench reflex's cleanup hit it). */
  @Test
  void aFrozenProcessIsThawedAndKilledByItsHandle() throws Exception {
    TaskId task = sandbox.group("frozen-kill");
    Process process = sandbox.idle(task);
    assertThat(cgroups.freeze(task, Duration.ofSeconds(10)).state()).isEqualTo(FreezerState.FROZEN);

    sandbox.thawAndKill(task, process);
    assertThat(process.isAlive()).isFalse();
    assertThat(cgroups.freezerState(task)).isEqualTo(FreezerState.THAWED);
  }

  @Test
  void aPopulatedGroupCannotBeRemovedAndARemovedOneIsGone() throws Exception {
    TaskId task = sandbox.group("gone");
    Process process = sandbox.idle(task);
    CgroupStatsReader reader = cgroups.openReader(task);
    try {
      assertThatThrownBy(() -> cgroups.remove(task))
          .isInstanceOfSatisfying(CgroupWriteException.class, e -> {
            assertThat(e.error()).isEqualTo(KernelError.EBUSY);
            assertThat(e.value()).isEqualTo("rmdir");
            assertThat(e.file()).hasFileName("gone");
            assertThat(e.getMessage()).startsWith("rmdir ").contains("EBUSY (Device or resource busy)");
          });
      assertThat(cgroups.exists(task)).isTrue();

      CgroupSandbox.kill(process);
      assertThat(eventually(PATIENCE, () -> {
        try {
          return cgroups.remove(task);
        } catch (IOException e) {
          return false;
        }
      })).isTrue();
      assertThat(cgroups.exists(task)).isFalse();
      assertThat(cgroups.discover().tasks()).doesNotContain(task);
      assertThatThrownBy(reader::read).isInstanceOfSatisfying(CgroupGoneException.class,
          e -> assertThat(e.task()).isEqualTo(task));
    } finally {
      reader.close();
    }
  }
}
