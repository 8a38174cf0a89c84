package io.quotaflow.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProgressClockTest {

  private static final long MS = 1_000_000;

  @Test
  void followsWallTimeWhileTheTaskRuns() {
    ProgressClock clock = new ProgressClock(0);
    assertThat(clock.advance(100 * MS)).isEqualTo(100);
    assertThat(clock.advance(250 * MS)).isEqualTo(250);
  }

  @Test
  void aFrozenSpellCountsAsOneShortStepOnly() {
    ProgressClock clock = new ProgressClock(0);
    clock.advance(100 * MS);
    assertThat(clock.advance(30_100 * MS)).isEqualTo(100 + ProgressClock.MAX_STEP_MS);
    assertThat(clock.advance(30_200 * MS)).isEqualTo(200 + ProgressClock.MAX_STEP_MS);
  }
}
