package io.quotaflow.enforcer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.schemas.avro.EnforcementKind;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class EnforcerMetricsTest {

  @Test
  void anEnforcerStartedAgainOnTheSameRegistryIsTheOneItsGaugesRead() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    EnforcerMetrics first = new EnforcerMetrics(registry);
    first.gauges(() -> 3, () -> 1, () -> 2);
    first.mode(Mode.ON);
    assertThat(registry.get("quotaflow.enforcer.tasks").gauge().value()).isEqualTo(3);
    first.close();
    assertThat(registry.find("quotaflow.enforcer.tasks").gauge()).isNull();

    EnforcerMetrics second = new EnforcerMetrics(registry);
    second.gauges(() -> 7, () -> 0, () -> 0);
    assertThat(registry.get("quotaflow.enforcer.tasks").gauge().value()).isEqualTo(7);
    assertThat(registry.find("quotaflow.enforcer.mode").gauges()).as("no mode in force while starting")
        .hasSize(Mode.values().length).allSatisfy(g -> assertThat(g.value()).isZero());
  }

  @Test
  void eachTaskWithACpuDecisionHasItsSoftAndEffectiveLimitAndAWithdrawnTaskLosesItsSeries() {
    PrometheusMeterRegistry registry = OpsServer.newRegistry("enforcer");
    EnforcerMetrics metrics = new EnforcerMetrics(registry);
    TaskId a = TaskId.of("job-a");
    TaskId b = TaskId.of("job-b");
    metrics.taskLimits(Map.of(a, new CpuLimits(2.5, 1.25), b, new CpuLimits(1, 1)));
    assertThat(registry.scrape())
        .contains("quotaflow_enforcer_task_limit_cpu{component=\"enforcer\",limit=\"soft\",task=\"job-a\"} 2.5")
        .contains("quotaflow_enforcer_task_limit_cpu{component=\"enforcer\",limit=\"effective\",task=\"job-a\"} 1.25");

    metrics.taskLimits(Map.of(a, new CpuLimits(3, 0.5)));
    assertThat(registry.get(TaskLimitGauges.METER).tag("task", "job-a").tag("limit", "effective").gauge().value())
        .as("a new decision's value, same series").isEqualTo(0.5);
    assertThat(registry.find(TaskLimitGauges.METER).tag("task", "job-b").gauges()).as("job-b withdrawn").isEmpty();

    metrics.close();
    assertThat(registry.find(TaskLimitGauges.METER).gauges()).isEmpty();
  }

  @Test
  void oneTaskAtATimeTheSeriesFollowEachDecisionAndItsWithdrawal() {
    PrometheusMeterRegistry registry = OpsServer.newRegistry("enforcer");
    EnforcerMetrics metrics = new EnforcerMetrics(registry);
    TaskId a = TaskId.of("job-a");
    TaskId b = TaskId.of("job-b");
    metrics.taskLimits(a, new CpuLimits(2.5, 1.25));
    metrics.taskLimits(b, new CpuLimits(1, 1));
    metrics.taskLimits(a, new CpuLimits(3, 0.5));
    assertThat(registry.get(TaskLimitGauges.METER).tag("task", "job-a").tag("limit", "effective").gauge().value())
        .as("the latest decision's value, same series").isEqualTo(0.5);
    assertThat(registry.find(TaskLimitGauges.METER).tag("task", "job-a").gauges()).hasSize(2);

    metrics.taskLimits(b, null);
    assertThat(registry.find(TaskLimitGauges.METER).tag("task", "job-b").gauges()).as("job-b withdrawn").isEmpty();
    assertThat(registry.scrape())
        .contains("quotaflow_enforcer_task_limit_cpu{component=\"enforcer\",limit=\"soft\",task=\"job-a\"} 3.0");

    metrics.close();
    assertThat(registry.find(TaskLimitGauges.METER).gauges()).isEmpty();
  }

  @Test
  void theModeInForceIsTheOneLabelValuedOne() {
    PrometheusMeterRegistry registry = OpsServer.newRegistry("enforcer");
    EnforcerMetrics metrics = new EnforcerMetrics(registry);
    metrics.mode(Mode.DRY_RUN);
    assertThat(registry.scrape())
        .contains("quotaflow_enforcer_mode{component=\"enforcer\",mode=\"DRY_RUN\"} 1.0")
        .contains("quotaflow_enforcer_mode{component=\"enforcer\",mode=\"ON\"} 0.0")
        .contains("quotaflow_enforcer_mode{component=\"enforcer\",mode=\"OFF\"} 0.0");
    metrics.mode(Mode.OFF);
    assertThat(registry.get("quotaflow.enforcer.mode").tag("mode", "OFF").gauge().value()).isEqualTo(1);
    assertThat(registry.get("quotaflow.enforcer.mode").tag("mode", "DRY_RUN").gauge().value()).isZero();
  }

  @Test
  void everySkipReasonAndFailureCounterIsThereAtZeroBeforeTheFirstRecord() {
    PrometheusMeterRegistry registry = OpsServer.newRegistry("enforcer");
    new EnforcerMetrics(registry).reads(java.util.List.of("t.cpu-decisions"));
    assertThat(registry.scrape())
        .contains("quotaflow_enforcer_skipped_total{component=\"enforcer\",reason=\"other_node\"} 0.0")
        .contains("quotaflow_enforcer_skipped_total{component=\"enforcer\",reason=\"lease_over\"} 0.0")
        .contains("quotaflow_enforcer_undecodable_total{component=\"enforcer\",topic=\"t.cpu-decisions\"} 0.0")
        .contains("quotaflow_enforcer_publish_failures_total{component=\"enforcer\"} 0.0")
        .contains("quotaflow_enforcer_state_file_failures_total{component=\"enforcer\"} 0.0");
  }

  @Test
  void controlDelayQuantilesAreReadFromTheBucketsAsPrometheusReadsThem() {
    PrometheusMeterRegistry registry = OpsServer.newRegistry("enforcer");
    EnforcerMetrics metrics = new EnforcerMetrics(registry);
    long sampleMs = 1_000_000;
    for (int i = 0; i < 90; i++) {
      metrics.controlDelay(EnforcementKind.FREEZE, decisionAt(sampleMs), sampleMs + 80);
    }
    for (int i = 0; i < 10; i++) {
      metrics.controlDelay(EnforcementKind.FREEZE, decisionAt(sampleMs), sampleMs + 900);
    }

    ControlDelay freezes = ControlDelay.of(registry, EnforcementKind.FREEZE).orElseThrow();
    // Rank 50 of 90 in (75, 100] ms; rank 99 is the 9th of 10 in (750, 1000] ms.
    assertThat(freezes).isEqualTo(new ControlDelay(89, 975, 100));
    assertThat(freezes.summary()).isEqualTo("p50 89 ms, p99 975 ms (100)");
    assertThat(ControlDelay.of(registry, EnforcementKind.CPU)).as("nothing applied of that kind").isEmpty();
    assertThat(registry.scrape())
        .contains("quotaflow_enforcer_control_delay_seconds_bucket{component=\"enforcer\",kind=\"FREEZE\",le=\"0.1\"} 90")
        .contains("quotaflow_enforcer_control_delay_seconds_bucket{component=\"enforcer\",kind=\"FREEZE\",le=\"1.0\"} 100")
        .contains("quotaflow_enforcer_control_delay_seconds_count{component=\"enforcer\",kind=\"FREEZE\"} 100")
        .contains("quotaflow_enforcer_control_delay_seconds_count{component=\"enforcer\",kind=\"CPU\"} 0");
  }

  @Test
  void aDecisionStampedAfterItWasAppliedCountsAsNoDelayNotANegativeOne() {
    PrometheusMeterRegistry registry = OpsServer.newRegistry("enforcer");
    new EnforcerMetrics(registry).controlDelay(EnforcementKind.CPU, decisionAt(5_000), 4_000);
    Timer timer = registry.get(ControlDelay.METER).tag("kind", "CPU").timer();
    assertThat(timer.count()).isEqualTo(1);
    assertThat(timer.totalTime(TimeUnit.MILLISECONDS)).isZero();
  }

  private static DecisionRef decisionAt(long recordTimestampMs) {
    return new DecisionRef("quotaflow.freeze-decisions", 0, 7, recordTimestampMs);
  }
}
