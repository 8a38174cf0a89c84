package io.quotaflow.enforcer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class EnforcerMetricsTest {

  @Test
  void anEnforcerStartedAgainOnTheSameRegistryIsTheOneItsGaugesRead() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    EnforcerMetrics first = new EnforcerMetrics(registry);
    first.gauges(() -> 3, () -> 1);
    first.mode(Mode.ON);
    assertThat(registry.get("quotaflow.enforcer.tasks").gauge().value()).isEqualTo(3);
    first.close();
    assertThat(registry.find("quotaflow.enforcer.tasks").gauge()).isNull();

    EnforcerMetrics second = new EnforcerMetrics(registry);
    second.gauges(() -> 7, () -> 0);
    assertThat(registry.get("quotaflow.enforcer.tasks").gauge().value()).isEqualTo(7);
    assertThat(registry.get("quotaflow.enforcer.mode").gauge().value()).isEqualTo(-1);
  }
}
