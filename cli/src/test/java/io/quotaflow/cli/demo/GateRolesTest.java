package io.quotaflow.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.schemas.avro.FreezeDecision;
import org.junit.jupiter.api.Test;

class GateRolesTest {

  private static final long MIB = 1 << 20;
  private static final long NORMAL = 64 * MIB;

  private final GateRoles roles = new GateRoles(1.1, 1.05);

  @Test
  void aTaskWithoutADeclaredNormalHasNoCell() {
    assertThat(roles.next("cpu", null, null, 48 * MIB)).isNull();
  }

  @Test
  void aTaskAboveItsThresholdOnTwoRowsWithoutAFreezeHoldsTheSlotUntilItFallsBackToItsReleaseLevel() {
    assertThat(role(null, 64)).isEqualTo("running");
    assertThat(role(null, 96)).as("one row: its FREEZE may be on its way").isEqualTo("running");
    assertThat(role(null, 160)).isEqualTo("holding");
    assertThat(role(null, 68)).as("above 1.05 × normal: still holding").isEqualTo("holding");
    assertThat(role(null, 66)).isEqualTo("running");
  }

  @Test
  void aFreezeMakesItWaitAndAThawIntoAFreedSlotMakesItHoldAtOnce() {
    assertThat(role(decision(FreezeAction.FREEZE, "PEAK_SLOT_BUSY", 1, 10), 96)).isEqualTo("waiting");
    assertThat(role(decision(FreezeAction.FREEZE, "LEASE_RENEWAL", 0, 20), 96)).isEqualTo("waiting");
    FreezeDecision thaw = decision(FreezeAction.THAW, "SLOT_FREED", null, 30);
    assertThat(role(thaw, 96)).isEqualTo("holding");
    assertThat(role(thaw, 64)).isEqualTo("running");
    assertThat(role(thaw, 96)).as("that slot was given up: a new climb is judged afresh").isEqualTo("running");
  }

  private String role(FreezeDecision latest, long mib) {
    return roles.next("t", NORMAL, latest, mib * MIB);
  }

  static FreezeDecision decision(FreezeAction action, String reason, Integer position, long tsMs) {
    return FreezeDecision.newBuilder().setNode("n").setTask("t").setTsMs(tsMs).setAction(action).setReason(reason)
        .setQueuePosition(position).setLeaseMs(action == FreezeAction.FREEZE ? 180_000L : null).build();
  }
}
