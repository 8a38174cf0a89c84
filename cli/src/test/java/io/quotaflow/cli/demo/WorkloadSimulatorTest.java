package io.quotaflow.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quotaflow.cgroups.CgroupCpuWrite;
import io.quotaflow.cgroups.CgroupStatsReader;
import io.quotaflow.cgroups.Cgroups;
import io.quotaflow.cgroups.FreezerState;
import io.quotaflow.cgroups.KernelCpuLimits;
import io.quotaflow.cgroups.TaskId;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulator plays the kernel well enough for the real collector and enforcer code. */
class WorkloadSimulatorTest {

  private static final long SECOND_NS = 1_000_000_000L;
  private static final DemoTask BUSY = new DemoTask("busy", Workload.Shape.BUSY, 1.0, DemoSpecs.RELAXED_POOL);
  private static final DemoTask OTHER = new DemoTask("other", Workload.Shape.BUSY, 1.0, DemoSpecs.RELAXED_POOL);

  @Test
  void aQuotaCapsASingleThreadedWorkload() {
    assertThat(WorkloadSimulator.capped(1.0, -1, 100_000)).isEqualTo(1.0);
    assertThat(WorkloadSimulator.capped(1.0, 20_600, 100_000)).isCloseTo(0.206, within(1e-9));
    assertThat(WorkloadSimulator.capped(3.0, 250_000, 100_000)).isEqualTo(1.0);
  }

  @Test
  void usageGrowsByWhatSharesAndQuotasGrantAndTheCgroupsModuleReadsIt() throws Exception {
    try (SimulatedCgroupTree tree = SimulatedCgroupTree.create();
        WorkloadSimulator simulator = WorkloadSimulator.start(tree, List.of(BUSY, OTHER), 1.0)) {
      simulator.close(); // tick by hand from here: no clock in the arithmetic
      Cgroups cgroups = Cgroups.open(tree.config());
      cgroups.applyCpu(TaskId.of("busy"), new CgroupCpuWrite(3000, KernelCpuLimits.weightForShares(3000), -1, 100_000));
      cgroups.applyCpu(TaskId.of("other"), new CgroupCpuWrite(1000, KernelCpuLimits.weightForShares(1000), -1, 100_000));
      try (CgroupStatsReader busy = cgroups.openReader(TaskId.of("busy"));
          CgroupStatsReader other = cgroups.openReader(TaskId.of("other"))) {
        simulator.tick(SECOND_NS, 0);
        assertThat(busy.read().cpuUsageUsec()).isEqualTo(750_000);
        assertThat(other.read().cpuUsageUsec()).isEqualTo(250_000);

        // A quota of 0.1 core holds "busy" there; "other" takes the rest of the core.
        cgroups.applyCpu(TaskId.of("busy"), new CgroupCpuWrite(3000, KernelCpuLimits.weightForShares(3000), 10_000, 100_000));
        simulator.tick(SECOND_NS, 1000);
        assertThat(busy.read().cpuUsageUsec()).isEqualTo(850_000);
        assertThat(other.read().cpuUsageUsec()).isEqualTo(1_150_000);
        assertThat(busy.read().cpuQuotaCores()).isCloseTo(0.1, within(1e-9));
      }
    }
  }

  @Test
  void aFrozenGroupBurnsNothingAndAFreezeIsAnswered() throws Exception {
    try (SimulatedCgroupTree tree = SimulatedCgroupTree.create();
        WorkloadSimulator simulator = WorkloadSimulator.start(tree, List.of(BUSY), 2.0)) {
      simulator.close();
      Cgroups cgroups = Cgroups.open(tree.config());
      tree.update("freezer", "busy", "freezer.state", "FREEZING\n");
      simulator.tick(SECOND_NS, 0);
      assertThat(cgroups.freezerState(TaskId.of("busy"))).isEqualTo(FreezerState.FROZEN);
      assertThat(tree.read("cpuacct", "busy", "cpuacct.usage")).isEqualTo("0");
      cgroups.thaw(TaskId.of("busy"), Duration.ofSeconds(1));
      simulator.tick(SECOND_NS, 1000);
      assertThat(tree.read("cpuacct", "busy", "cpuacct.usage")).isEqualTo("1000000000");
    }
  }

  @Test
  void anAllocatorsMemoryFollowsItsScheduleAndStandsStillWhileFrozen() throws Exception {
    MemorySchedule schedule = new MemorySchedule(64, 128, 32, Duration.ofSeconds(1), Duration.ofSeconds(1),
        Duration.ofSeconds(1), 0);
    DemoTask allocator = DemoTask.allocator("peak", schedule);
    try (SimulatedCgroupTree tree = SimulatedCgroupTree.create();
        WorkloadSimulator simulator = WorkloadSimulator.start(tree, List.of(allocator), 2.0)) {
      simulator.close();
      Cgroups cgroups = Cgroups.open(tree.config());
      try (CgroupStatsReader reader = cgroups.openReader(TaskId.of("peak"))) {
        assertThat(reader.read().memoryAnonBytes()).isEqualTo(64L << 20);
        simulator.tick(SECOND_NS, 1000);
        assertThat(reader.read().memoryAnonBytes()).isEqualTo(96L << 20);
        assertThat(reader.read().memoryBytes()).isEqualTo(96L << 20);

        tree.update("freezer", "peak", "freezer.state", "FREEZING\n");
        simulator.tick(10 * SECOND_NS, 11_000);
        assertThat(reader.read().memoryAnonBytes()).as("no progress while frozen").isEqualTo(96L << 20);
        assertThat(reader.read().cpuUsageUsec()).isEqualTo(100_000);

        cgroups.thaw(TaskId.of("peak"), Duration.ofSeconds(1));
        simulator.tick(SECOND_NS, 12_000);
        assertThat(reader.read().memoryAnonBytes()).as("the climb resumes where it stopped").isEqualTo(128L << 20);
        assertThat(reader.read().memoryPeakBytes()).isEqualTo(128L << 20);
      }
    }
  }

  @Test
  void closingTheTreeDeletesIt() throws Exception {
    SimulatedCgroupTree tree = SimulatedCgroupTree.create();
    tree.addTask("t");
    tree.close();
    assertThat(Files.exists(tree.root())).isFalse();
  }
}
