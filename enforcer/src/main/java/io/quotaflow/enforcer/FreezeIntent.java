package io.quotaflow.enforcer;

import io.quotaflow.cgroups.TaskId;
import io.quotaflow.schemas.avro.FreezeDecision;

/**
 * A task's desired freeze state as the enforcer keeps it: the latest {@code FreezeDecision}, with
 * the FREEZE's lease turned into a deadline on the enforcer's clock (DESIGN §4).
 *
 * @param freeze true for FREEZE, false for THAW
 * @param expiresAtMs when a FREEZE stops holding unless renewed, epoch ms; 0 for THAW
 */
public record FreezeIntent(DecisionRef ref, TaskId task, boolean freeze, long expiresAtMs) {

  /**
   * A decision received at {@code nowMs}. The lease counts from receipt, so a delayed record still
   * holds for its whole lease; but on start, a FREEZE whose record is already older than its lease
   * is stale (its deadline is in the past), because the streams app would have renewed a task that
   * still waits.
   *
   * @param atStart the record was read while catching up to the end offsets at start
   * @param defaultLeaseMs for a FREEZE without {@code lease_ms}: the cluster's {@code freeze_lease_ms}
   * @throws IllegalArgumentException for a lease that is not positive
   */
  static FreezeIntent received(DecisionRef ref, TaskId task, FreezeDecision decision, long nowMs, boolean atStart,
      long defaultLeaseMs) {
    return switch (decision.getAction()) {
      case THAW -> new FreezeIntent(ref, task, false, 0);
      case FREEZE -> {
        long leaseMs = decision.getLeaseMs() != null ? decision.getLeaseMs() : defaultLeaseMs;
        if (leaseMs <= 0) {
          throw new IllegalArgumentException("a FREEZE needs a positive lease_ms, got " + leaseMs);
        }
        long recordExpiryMs = saturatedAdd(ref.recordTimestampMs(), leaseMs);
        long expiresAtMs = atStart && recordExpiryMs <= nowMs ? recordExpiryMs : saturatedAdd(nowMs, leaseMs);
        yield new FreezeIntent(ref, task, true, expiresAtMs);
      }
    };
  }

  /** Whether a FREEZE still holds at {@code nowMs}. */
  boolean holdsAt(long nowMs) {
    return freeze && expiresAtMs > nowMs;
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }
}
