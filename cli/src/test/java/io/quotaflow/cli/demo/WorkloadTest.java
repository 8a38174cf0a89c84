package io.quotaflow.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WorkloadTest {

  @Test
  void shapesAskForAtMostOneCore() {
    assertThat(Workload.Shape.BUSY.demandCores(123_456)).isEqualTo(1.0);
    assertThat(Workload.Shape.IDLE.demandCores(123_456)).isZero();
  }

  @Test
  void burstyAlternatesBusyAndIdleSpells() {
    long spell = Workload.Shape.SPELL.toMillis();
    assertThat(Workload.Shape.BURSTY.demandCores(0)).isZero();
    assertThat(Workload.Shape.BURSTY.demandCores(spell - 1)).isZero();
    assertThat(Workload.Shape.BURSTY.demandCores(spell)).isEqualTo(1.0);
    assertThat(Workload.Shape.BURSTY.demandCores(2 * spell - 1)).isEqualTo(1.0);
    assertThat(Workload.Shape.BURSTY.demandCores(2 * spell)).isZero();
  }

  @Test
  void aSteppingAllocatorBurnsATenthOfACore() {
    assertThat(Workload.Shape.LIGHT.demandCores(123_456)).isEqualTo(0.1);
  }

  @Test
  void anAllocatorsCommandCarriesItsScheduleAndRoomForItsPeak() {
    MemorySchedule schedule = MemorySchedule.parse("normal_mb=64,peak_mb=192,step_mb=32,rest_ms=0,period_ms=1000,hold_ms=0,cycles=1");
    assertThat(Workload.command(schedule))
        .contains("-XX:MaxDirectMemorySize=224m", Workload.class.getName(), "memory", schedule.argument());
    assertThat(Workload.stdinControlled(100)).endsWith("memory", "stdin").contains("-XX:MaxDirectMemorySize=132m")
        .startsWith("env", "MALLOC_MMAP_THRESHOLD_=131072");
  }

  @Test
  void theCommandRunsThisClassInASmallJvm() {
    assertThat(Workload.command(Workload.Shape.BURSTY))
        .contains("-Xmx16m", Workload.class.getName(), "bursty")
        .first().asString().contains("java");
  }
}
