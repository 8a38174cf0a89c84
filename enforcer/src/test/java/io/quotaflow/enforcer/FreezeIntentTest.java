package io.quotaflow.enforcer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.cgroups.TaskId;
import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.schemas.avro.FreezeDecision;
import org.junit.jupiter.api.Test;

class FreezeIntentTest {

  static final TaskId TASK = TaskId.of("job-1");
  static final long DEFAULT_LEASE_MS = 180_000;

  static DecisionRef recordAt(long timestampMs) {
    return new DecisionRef("quotaflow.freeze-decisions", 0, 7, timestampMs);
  }

  static FreezeDecision decision(FreezeAction action, Long leaseMs) {
    return FreezeDecision.newBuilder().setNode("node-1").setTask("job-1").setTsMs(0).setAction(action)
        .setReason("PEAK_SLOT_BUSY").setLeaseMs(leaseMs).build();
  }

  @Test
  void whileTailingTheLeaseCountsFromReceiptHoweverOldTheRecord() {
    FreezeIntent intent = FreezeIntent.received(recordAt(1_000), TASK, decision(FreezeAction.FREEZE, 10_000L),
        50_000, false, DEFAULT_LEASE_MS);
    assertThat(intent.freeze()).isTrue();
    assertThat(intent.expiresAtMs()).isEqualTo(60_000);
    assertThat(intent.holdsAt(59_999)).isTrue();
    assertThat(intent.holdsAt(60_000)).isFalse();
  }

  @Test
  void onStartAFreezeOlderThanItsLeaseIsStale() {
    FreezeIntent stale = FreezeIntent.received(recordAt(1_000), TASK, decision(FreezeAction.FREEZE, 10_000L),
        11_000, true, DEFAULT_LEASE_MS);
    assertThat(stale.holdsAt(11_000)).isFalse();
  }

  @Test
  void onStartAYoungerFreezeHoldsForItsWholeLeaseFromNow() {
    FreezeIntent fresh = FreezeIntent.received(recordAt(1_000), TASK, decision(FreezeAction.FREEZE, 10_000L),
        10_999, true, DEFAULT_LEASE_MS);
    assertThat(fresh.expiresAtMs()).isEqualTo(20_999);
  }

  @Test
  void aFreezeWithoutALeaseTakesTheClustersFreezeLease() {
    FreezeIntent intent = FreezeIntent.received(recordAt(0), TASK, decision(FreezeAction.FREEZE, null), 100, false,
        DEFAULT_LEASE_MS);
    assertThat(intent.expiresAtMs()).isEqualTo(100 + DEFAULT_LEASE_MS);
  }

  @Test
  void aLeaseThatIsNotPositiveIsRefused() {
    assertThatThrownBy(() -> FreezeIntent.received(recordAt(0), TASK, decision(FreezeAction.FREEZE, 0L), 0, false,
        DEFAULT_LEASE_MS)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive lease_ms");
  }

  @Test
  void aHugeLeaseSaturatesInsteadOfWrapping() {
    FreezeIntent intent = FreezeIntent.received(recordAt(0), TASK, decision(FreezeAction.FREEZE, Long.MAX_VALUE), 5, false,
        DEFAULT_LEASE_MS);
    assertThat(intent.expiresAtMs()).isEqualTo(Long.MAX_VALUE);
    assertThat(intent.holdsAt(Long.MAX_VALUE - 1)).isTrue();
  }

  @Test
  void aThawHasNoLease() {
    FreezeIntent intent = FreezeIntent.received(recordAt(0), TASK, decision(FreezeAction.THAW, null), 5, true,
        DEFAULT_LEASE_MS);
    assertThat(intent.freeze()).isFalse();
    assertThat(intent.holdsAt(0)).isFalse();
  }
}
