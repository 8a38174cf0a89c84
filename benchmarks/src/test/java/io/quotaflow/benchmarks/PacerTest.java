package io.quotaflow.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PacerTest {

  @Test
  void recordsDueFollowTheRateFromTheStart() {
    Pacer pacer = new Pacer(5_000);
    assertThat(pacer.dueBy(0)).isZero();
    assertThat(pacer.dueBy(1_000_000)).isEqualTo(5);          // 1 ms
    assertThat(pacer.dueBy(1_000_000_000L)).isEqualTo(5_000); // 1 s
    assertThat(pacer.dueBy(60_000_000_000L)).isEqualTo(300_000);
    assertThat(pacer.dueBy(-5)).isZero();
  }

  @Test
  void refusesARateThatIsNotPositive() {
    assertThatThrownBy(() -> new Pacer(0)).hasMessageContaining("positive");
    assertThatThrownBy(() -> new Pacer(Double.NaN)).hasMessageContaining("positive");
    assertThatThrownBy(() -> new Pacer(Double.POSITIVE_INFINITY)).hasMessageContaining("positive");
  }
}
