package io.quotaflow.enforcer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReflexClockTest {

  static final long MS = 1_000_000;
  static final Duration POLL = Duration.ofMillis(200);

  @Test
  void tenHertzReadsEveryHundredMillisecondsAndThePollNeverWaitsPastTheNextReading() {
    ReflexClock clock = new ReflexClock(10, 0);
    assertThat(clock.waitBefore(POLL, 30 * MS)).isEqualTo(Duration.ofMillis(70));
    assertThat(clock.due(99 * MS)).isFalse();
    assertThat(clock.due(100 * MS)).isTrue();
    assertThat(clock.due(150 * MS)).isFalse();
    assertThat(clock.waitBefore(POLL, 150 * MS)).isEqualTo(Duration.ofMillis(50));
    assertThat(clock.due(205 * MS)).as("on schedule, not 100 ms after the late one").isTrue();
    assertThat(clock.waitBefore(POLL, 205 * MS)).isEqualTo(Duration.ofMillis(95));
    assertThat(clock.waitBefore(POLL, 400 * MS)).as("overdue: no wait").isZero();
  }

  @Test
  void aLateReadingIsNotCaughtUpWithABurst() {
    ReflexClock clock = new ReflexClock(10, 0);
    assertThat(clock.due(1_000 * MS)).isTrue();
    assertThat(clock.due(1_001 * MS)).isFalse();
    assertThat(clock.due(1_100 * MS)).isTrue();
  }

  @Test
  void zeroHertzIsNoReflex() {
    ReflexClock off = new ReflexClock(0, 0);
    assertThat(off.due(Long.MAX_VALUE / 2)).isFalse();
    assertThat(off.waitBefore(POLL, 0)).isEqualTo(POLL);
  }
}
