package io.quotaflow.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryScheduleTest {

  /** 64 → 192 MiB in steps of 32 every second after 10 s at rest, 5 s at the peak, twice. */
  private static final MemorySchedule TWICE = new MemorySchedule(64, 192, 32, Duration.ofSeconds(10),
      Duration.ofSeconds(1), Duration.ofSeconds(5), 2);

  @Test
  void restsAtNormalThenClimbsHoldsAndStepsBackDown() {
    List<Long> perSecond = new ArrayList<>();
    for (long s = 0; s < TWICE.cycleMs() / 1000; s++) {
      perSecond.add(TWICE.targetMbAt(s * 1000));
    }
    assertThat(perSecond).containsExactly(
        64L, 64L, 64L, 64L, 64L, 64L, 64L, 64L, 64L, 64L,
        96L, 128L, 160L, 192L,
        192L, 192L, 192L, 192L, 192L,
        160L, 128L, 96L, 64L);
    assertThat(TWICE.cycleMs()).isEqualTo(23_000);
  }

  @Test
  void repeatsItsCyclesThenStaysAtNormal() {
    assertThat(TWICE.targetMbAt(23_000 + 13_000)).isEqualTo(192);
    assertThat(TWICE.targetMbAt(2 * 23_000 + 13_000)).isEqualTo(64);
    MemorySchedule forever = new MemorySchedule(64, 192, 32, Duration.ofSeconds(10), Duration.ofSeconds(1),
        Duration.ofSeconds(5), 0);
    assertThat(forever.targetMbAt(100 * 23_000 + 13_000)).isEqualTo(192);
  }

  @Test
  void aLastStepShorterThanTheOthersStopsAtThePeak() {
    MemorySchedule uneven = new MemorySchedule(50, 100, 30, Duration.ZERO, Duration.ofSeconds(1), Duration.ZERO, 1);
    assertThat(uneven.steps()).isEqualTo(2);
    assertThat(List.of(uneven.targetMbAt(0), uneven.targetMbAt(1000), uneven.targetMbAt(2000), uneven.targetMbAt(3000)))
        .containsExactly(80L, 100L, 70L, 50L);
  }

  @Test
  void theArgumentReadsBackAsTheSameSchedule() {
    assertThat(TWICE.argument())
        .isEqualTo("normal_mb=64,peak_mb=192,step_mb=32,rest_ms=10000,period_ms=1000,hold_ms=5000,cycles=2");
    assertThat(MemorySchedule.parse(TWICE.argument())).isEqualTo(TWICE);
  }

  @Test
  void refusesAScheduleThatCannotRun() {
    assertThatThrownBy(() -> MemorySchedule.parse("normal_mb=64,peak_mb=32,step_mb=8,rest_ms=0,period_ms=1,hold_ms=0,cycles=0"))
        .hasMessageContaining("normal <= peak");
    assertThatThrownBy(() -> MemorySchedule.parse("normal_mb=64,peak_mb=96,step_mb=8,rest_ms=0,period_ms=1,hold_ms=0"))
        .hasMessageContaining("missing cycles=");
    assertThatThrownBy(() -> MemorySchedule.parse("normal_mb=64,peak_mb=96,step_mb=0,rest_ms=0,period_ms=1,hold_ms=0,cycles=1"))
        .hasMessageContaining("step must be > 0");
  }
}
