package io.quotaflow.cli.demo;

import static io.quotaflow.cli.demo.GateRolesTest.decision;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.avro.FreezeAction;
import org.junit.jupiter.api.Test;

class WaitQueueTest {

  private final WaitQueue queue = new WaitQueue();

  @Test
  void placesFollowFreezeTimeAndMoveUpWhenTheHeadIsThawedBeforeAnyRenewalSaysSo() {
    queue.onDecision("b", decision(FreezeAction.FREEZE, "PEAK_SLOT_BUSY", 0, 100));
    queue.onDecision("c", decision(FreezeAction.FREEZE, "PEAK_SLOT_BUSY", 1, 200));
    assertThat(queue.position("b")).isZero();
    assertThat(queue.position("c")).isEqualTo(1);
    assertThat(queue.position("a")).as("not waiting").isNull();

    queue.onDecision("b", decision(FreezeAction.THAW, "SLOT_FREED", null, 300));
    assertThat(queue.position("b")).isNull();
    assertThat(queue.position("c")).as("c's published place is still 1; it is the head now").isZero();
  }

  @Test
  void aRenewalKeepsThePlaceAndTiesGoByTaskId() {
    queue.onDecision("y", decision(FreezeAction.FREEZE, "PEAK_SLOT_BUSY", 0, 100));
    queue.onDecision("x", decision(FreezeAction.FREEZE, "PEAK_SLOT_BUSY", 0, 100));
    queue.onDecision("w", decision(FreezeAction.FREEZE, "PEAK_SLOT_BUSY", 2, 150));
    queue.onDecision("x", decision(FreezeAction.FREEZE, "LEASE_RENEWAL", 0, 60_100));
    assertThat(queue.position("x")).isZero();
    assertThat(queue.position("y")).isEqualTo(1);
    assertThat(queue.position("w")).isEqualTo(2);
    queue.onDecision("x", null);
    assertThat(queue.position("y")).as("a tombstone takes the task out").isZero();
  }
}
