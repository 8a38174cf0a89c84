package io.quotaflow.cgroups;

import static io.quotaflow.cgroups.Sandboxes.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The kernel's behaviour on this node's cgroup v2 tree (hybrid here: {@code unified}, without
 * the cpu and memory controllers). Our own groups and child processes only.
 */
class RealV2CgroupsTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);

  CgroupSandbox sandbox;
  Cgroups cgroups;

  @BeforeEach
  void openSandbox() throws IOException {
    sandbox = Sandboxes.openOrSkip(CgroupLayout.V2);
    cgroups = sandbox.cgroups();
    assertThat(cgroups.version()).isEqualTo(CgroupVersion.V2);
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
  void cpuStatCountsABusyProcessAndNotAnIdleOne() throws Exception {
    TaskId busy = sandbox.group("busy");
    TaskId idle = sandbox.group("idle");
    Process process = sandbox.busy(busy);
    sandbox.idle(idle);
    try (CgroupStatsReader busyReader = cgroups.openReader(busy);
        CgroupStatsReader idleReader = cgroups.openReader(idle)) {
      assertThat(eventually(PATIENCE, () -> read(busyReader).cpuUsageUsec() >= 300_000)).isTrue();
      CgroupStats idleStats = read(idleReader);
      assertThat(idleStats.cpuUsageUsec()).isLessThan(100_000);
      assertThat(idleStats.freezer()).isEqualTo(FreezerState.THAWED);
    }
    String procCgroup = Files.readString(Path.of("/proc/" + process.pid() + "/cgroup"));
    assertThat(procCgroup.lines().filter(l -> l.startsWith("0::")))
        .singleElement().asString().endsWith("/" + sandbox.parentName() + "/busy");
    assertThat(cgroups.discover().tasks()).containsExactly(busy, idle);
  }

  @Test
  void withoutTheCpuControllerCpuSettingsAreUnsupportedAndThrottlingIsAbsent() throws Exception {
    assumeFalse(cgroups.cpuSettingsSupported(), "this v2 tree enables the cpu controller");
    TaskId task = sandbox.group("nocpu");
    assertThatThrownBy(() -> cgroups.applyCpu(task, new CgroupCpuWrite(1000, 98, 10_000, 100_000)))
        .isInstanceOf(CgroupUnsupportedException.class)
        .hasMessageContaining("no cpu controller");
    try (CgroupStatsReader reader = cgroups.openReader(task)) {
      CgroupStats stats = reader.read();
      assertThat(stats.nrThrottled()).isNull();
      assertThat(stats.throttledUsec()).isNull();
      assertThat(stats.cpuQuotaCores()).isNull();
    }
  }

  @Test
  void withTheCpuControllerWeightAndMaxRoundTrip() throws Exception {
    assumeTrue(cgroups.cpuSettingsSupported(),
        "this v2 tree does not enable the cpu controller for the test parent's children");
    TaskId task = sandbox.group("cpu");
    CpuApplyResult applied = cgroups.applyCpu(task, new CgroupCpuWrite(2000, 195, 20_600, 100_000));
    assertThat(applied.readBack()).isEqualTo(new CgroupCpuRead(null, 195L, 20_600, 100_000));
    assertThat(cgroups.applyCpu(task, new CgroupCpuWrite(2000, 195, 20_600, 100_000)).outcome())
        .isEqualTo(WriteOutcome.UNCHANGED);
    assertThatThrownBy(() -> cgroups.applyCpu(task, new CgroupCpuWrite(2000, 10_001, -1, 100_000)))
        .isInstanceOfSatisfying(CgroupWriteException.class,
            e -> assertThat(e.error()).isEqualTo(KernelError.ERANGE));
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
      CgroupStats before = reader.read();
      assertThat(before.freezer()).isEqualTo(FreezerState.FROZEN);
      Thread.sleep(500); // to see nothing happen
      assertThat(reader.read().cpuUsageUsec()).isEqualTo(before.cpuUsageUsec());
      assertThat(cgroups.freeze(task, Duration.ofSeconds(10)).outcome()).isEqualTo(FreezeOutcome.UNCHANGED);

      assertThat(cgroups.thaw(task, Duration.ofSeconds(10)).outcome()).isEqualTo(FreezeOutcome.APPLIED);
      assertThat(cgroups.freezerState(task)).isEqualTo(FreezerState.THAWED);
      assertThat(eventually(PATIENCE,
          () -> read(reader).cpuUsageUsec() > before.cpuUsageUsec() + 50_000)).isTrue();
    }
  }

  @Test
  void kernelErrorsNameTheErrnoFileAndValue() throws Exception {
    TaskId task = sandbox.group("errors");
    Path freeze = sandbox.parentDir("unified").resolve("errors/cgroup.freeze");
    assertThatThrownBy(() -> KernfsIo.write(freeze, "7"))
        .isInstanceOfSatisfying(CgroupWriteException.class, e -> {
          assertThat(e.error()).isEqualTo(KernelError.ERANGE);
          assertThat(e.file()).isEqualTo(freeze);
          assertThat(e.value()).isEqualTo("7");
          assertThat(e.getMessage()).contains("Numerical result out of range");
        });
    assertThat(cgroups.freezerState(task)).isEqualTo(FreezerState.THAWED);

    Process process = sandbox.idle(task);
    assertThatThrownBy(() -> cgroups.remove(task)).isInstanceOfSatisfying(CgroupWriteException.class,
        e -> assertThat(e.error()).isEqualTo(KernelError.EBUSY));
    CgroupSandbox.kill(process);
  }

  @Test
  void aRemovedGroupIsGone() throws Exception {
    TaskId task = sandbox.group("gone");
    try (CgroupStatsReader reader = cgroups.openReader(task)) {
      assertThat(reader.read().cpuUsageUsec()).isZero();
      assertThat(cgroups.remove(task)).isTrue();
      assertThatThrownBy(reader::read).isInstanceOf(CgroupGoneException.class);
    }
    assertThatThrownBy(() -> cgroups.openReader(task)).isInstanceOf(CgroupGoneException.class);
  }
}
