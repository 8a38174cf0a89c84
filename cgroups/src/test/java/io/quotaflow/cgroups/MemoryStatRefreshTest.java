package io.quotaflow.cgroups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MemoryStatRefreshTest {

  final MemoryStatRefresh tenReadsOrOnePercent = new MemoryStatRefresh(10, 0.01);

  @Test
  void everyReadIsAlwaysDue() {
    assertThat(MemoryStatRefresh.EVERY_READ.due(1, 100L, 100L)).isTrue();
  }

  @Test
  void dueWhenTheUsageMovedMoreThanTheRatioOrTooManyReadsPassed() {
    assertThat(tenReadsOrOnePercent.due(1, 1_000_000L, 1_000_000L)).isFalse();
    assertThat(tenReadsOrOnePercent.due(9, 1_010_000L, 1_000_000L)).as("exactly 1 %").isFalse();
    assertThat(tenReadsOrOnePercent.due(1, 1_010_001L, 1_000_000L)).isTrue();
    assertThat(tenReadsOrOnePercent.due(1, 989_999L, 1_000_000L)).as("shrinking counts too").isTrue();
    assertThat(tenReadsOrOnePercent.due(10, 1_000_000L, 1_000_000L)).isTrue();
  }

  @Test
  void dueWhenNothingIsKnownToCompareWith() {
    assertThat(tenReadsOrOnePercent.due(1, 5L, null)).as("first read").isTrue();
    assertThat(tenReadsOrOnePercent.due(1, null, 5L)).as("no usage file").isTrue();
    assertThat(tenReadsOrOnePercent.due(1, 1L, 0L)).as("any change from zero").isTrue();
    assertThat(tenReadsOrOnePercent.due(1, 0L, 0L)).isFalse();
  }

  @Test
  void rejectsNonsense() {
    assertThatThrownBy(() -> new MemoryStatRefresh(0, 0.01)).hasMessageContaining(">= 1");
    assertThatThrownBy(() -> new MemoryStatRefresh(5, Double.NaN)).hasMessageContaining(">= 0");
  }
}
