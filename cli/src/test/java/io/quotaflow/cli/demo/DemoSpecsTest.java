package io.quotaflow.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.avro.Enforcement;
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
