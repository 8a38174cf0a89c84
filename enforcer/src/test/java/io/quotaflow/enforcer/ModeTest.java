package io.quotaflow.enforcer;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.avro.Enforcement;
import org.junit.jupiter.api.Test;

class ModeTest {

  @Test
  void theClusterKillSwitchSetsTheMode() {
    assertThat(Mode.of(Enforcement.ON, false)).isEqualTo(Mode.ON);
    assertThat(Mode.of(Enforcement.DRY_RUN, false)).isEqualTo(Mode.DRY_RUN);
    assertThat(Mode.of(Enforcement.OFF, false)).isEqualTo(Mode.OFF);
  }

  @Test
  void theDryRunFlagWinsEvenOverOff() {
    for (Enforcement cluster : Enforcement.values()) {
      assertThat(Mode.of(cluster, true)).as("cluster %s with --dry-run", cluster).isEqualTo(Mode.DRY_RUN);
    }
  }

  @Test
  void comingBackToOnReconcilesAndGoingOffRestores() {
    assertThat(Mode.DRY_RUN.to(Mode.ON)).isEqualTo(Mode.Transition.RECONCILE);
    assertThat(Mode.OFF.to(Mode.ON)).isEqualTo(Mode.Transition.RECONCILE);
    assertThat(Mode.ON.to(Mode.OFF)).isEqualTo(Mode.Transition.RESTORE);
    assertThat(Mode.DRY_RUN.to(Mode.OFF)).isEqualTo(Mode.Transition.RESTORE);
    assertThat(Mode.ON.to(Mode.DRY_RUN)).isEqualTo(Mode.Transition.NOTHING);
    assertThat(Mode.OFF.to(Mode.DRY_RUN)).isEqualTo(Mode.Transition.NOTHING);
    for (Mode mode : Mode.values()) {
      assertThat(mode.to(mode)).isEqualTo(Mode.Transition.NOTHING);
    }
  }
}
