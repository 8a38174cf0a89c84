package io.quotaflow.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.avro.Enforcement;
import io.quotaflow.schemas.avro.PeakGatingMode;
import io.quotaflow.streams.engine.cpu.CpuReading;
import io.quotaflow.streams.engine.cpu.JobCpuMonitor;
import io.quotaflow.streams.engine.cpu.MonitorSettings;
import io.quotaflow.streams.engine.cpu.MonitorState;
import io.quotaflow.streams.engine.cpu.MonitorStep;
import io.quotaflow.streams.topology.ClusterConfigValidator;
import io.quotaflow.streams.topology.RecordChecks;
import io.quotaflow.streams.topology.SpecSettings;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The demo's specs are valid and make the monitor do, within a minute, what the README says it does. */
class DemoSpecsTest {

  private static final double HARD_CPU = 1.0;

  @Test
  void everySpecAndTheClusterConfigAreValid() {
    for (DemoTask task : DemoTask.ALL) {
      assertThat(RecordChecks.specProblems(DemoSpecs.spec("vm", task, 0))).as(task.name()).isEmpty();
      assertThat(DemoSpecs.spec("vm", task, 0).getJobCpuMonitor().getEnableCpuReclaim()).isTrue();
    }
    assertThat(ClusterConfigValidator.problems(DemoSpecs.cluster(Enforcement.ON))).isEmpty();
    assertThat(DemoSpecs.cluster(Enforcement.DRY_RUN).getEnforcement()).isEqualTo(Enforcement.DRY_RUN);
  }

  @Test
  void theAllocatorsDeclareTheirScheduleAndTheClusterGatesWithOneSlot() {
    List<DemoTask> allocators = DemoTask.ALL.stream().filter(t -> t.memory() != null).toList();
    assertThat(allocators).extracting(DemoTask::name).containsExactly("demo-peak-a", "demo-peak-b", "demo-peak-c");
    for (DemoTask task : allocators) {
      assertThat(DemoSpecs.spec("vm", task, 0).getMemoryNormalBytes()).isEqualTo(64L << 20);
      assertThat(DemoSpecs.spec("vm", task, 0).getMemoryPeakBytes()).isEqualTo(160L << 20);
      assertThat(DemoSpecs.spec("vm", task, 0).getOperation()).isEqualTo("demo-peaks");
      assertThat(task.memory().targetMbAt(task.memory().rest().toMillis()))
          .as("the first step already crosses 1.1 × normal").isGreaterThan((long) (1.1 * 64));
    }
    assertThat(DemoSpecs.spec("vm", DemoTask.ALL.get(0), 0).getMemoryNormalBytes()).as("CPU tasks are never gated").isNull();
    assertThat(DemoSpecs.cluster(Enforcement.ON).getMaxConcurrentPeaks()).isEqualTo(1);
    assertThat(DemoSpecs.cluster(Enforcement.ON).getPeakGatingMode()).isEqualTo(PeakGatingMode.COUNT);
  }

  @Test
  void theSecondAndThirdClimbStartWhileTheFirstStillHoldsItsPeak() {
    MemorySchedule first = DemoTask.ALL.get(4).memory();
    long firstFallsBackMs = first.cycleMs(); // back at normal by the end of its first cycle
    for (DemoTask later : DemoTask.ALL.subList(5, 7)) {
      assertThat(later.memory().rest().toMillis()).isBetween(first.rest().toMillis() + 1, firstFallsBackMs - 1000);
    }
  }

  @Test
  void anIdleTaskStepsDownFromAboutFiveSecondsAndReachesTheFloorWithinForty() {
    List<Double> soft = softLimitsPerSecond(0.0, 60);
    int firstDecrease = firstIndexBelow(soft, HARD_CPU);
    assertThat(firstDecrease).isBetween(3, 8);
    assertThat(soft.get(firstDecrease)).isEqualTo(0.8);
    assertThat(firstIndexBelow(soft, 0.1 - 1e-9)).as("never below the floor").isEqualTo(-1);
    assertThat(soft.get(40)).isEqualTo(0.1);
  }

  @Test
  void aTaskBurningItsWholeCoreKeepsItsSoftLimit() {
    assertThat(softLimitsPerSecond(1.0, 60)).allMatch(s -> s == HARD_CPU);
  }

  /** The soft limit after each of {@code seconds} samples one second apart, burning {@code cores}. */
  private static List<Double> softLimitsPerSecond(double cores, int seconds) {
    JobCpuMonitor monitor = new JobCpuMonitor();
    MonitorSettings settings = SpecSettings.monitor(DemoSpecs.monitor());
    MonitorState state = MonitorState.initial(HARD_CPU);
    List<Double> soft = new ArrayList<>();
    for (int s = 0; s < seconds; s++) {
      MonitorStep step = monitor.step(state, settings, HARD_CPU, new CpuReading(s * 1000L, Math.round(s * cores * 1e6)));
      state = step.state();
      soft.add(state.softLimitCpu());
    }
    return soft;
  }

  private static int firstIndexBelow(List<Double> values, double limit) {
    for (int i = 0; i < values.size(); i++) {
      if (values.get(i) < limit) {
        return i;
      }
    }
    return -1;
  }
}
