package io.quotaflow.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class ReplayTimesTest {

  private static final Instant NOW = Instant.parse("2026-11-26T07:00:00Z");

  @Test
  void readsTheFormsAnSreCopiesFromAnAlertOrALog() {
    assertThat(ReplayTimes.parse("2026-11-26T06:40:00Z", NOW)).isEqualTo(Instant.parse("2026-11-26T06:40:00Z"));
    assertThat(ReplayTimes.parse("2026-11-26T06:40:00", NOW)).as("no zone: UTC").isEqualTo(Instant.parse("2026-11-26T06:40:00Z"));
    assertThat(ReplayTimes.parse("1795675200000", NOW)).isEqualTo(Instant.ofEpochMilli(1795675200000L));
    assertThat(ReplayTimes.parse("now", NOW)).isEqualTo(NOW);
    assertThat(ReplayTimes.parse("-30m", NOW)).isEqualTo(Instant.parse("2026-11-26T06:30:00Z"));
  }

  @Test
  void anythingElseIsRefusedWithTheFormsItTakes() {
    assertThatThrownBy(() -> ReplayTimes.parse("yesterday", NOW)).hasMessageContaining("'yesterday' is not a time: expected an ISO time");
    assertThatThrownBy(() -> ReplayTimes.parse("-soon", NOW)).hasMessageContaining("'-soon' is not a time");
  }
}
