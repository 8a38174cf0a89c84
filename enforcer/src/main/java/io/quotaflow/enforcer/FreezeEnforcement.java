package io.quotaflow.enforcer;

import io.quotaflow.cgroups.FreezerState;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementStatus;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Freeze decisions carried out under leases (DESIGN §4): a freeze holds until its lease runs out
 * unless renewed, the enforcer then thaws the group by itself (paced by {@link LeaseBook}), and it
 * only ever thaws groups it froze itself. Each lease is saved before the freezer is written.
 */
final class FreezeEnforcement {

  private static final Logger LOG = LoggerFactory.getLogger(FreezeEnforcement.class);

  private final CgroupActuator actuator;
  private final NodeLedger ledger;
  private final Answers answers;
  private final EnforcerMetrics metrics;
  private final Clock clock;

  FreezeEnforcement(CgroupActuator actuator, NodeLedger ledger, Answers answers, EnforcerMetrics metrics, Clock clock) {
    this.actuator = actuator;
    this.ledger = ledger;
    this.answers = answers;
    this.metrics = metrics;
    this.clock = clock;
  }

  /**
   * The task's latest freeze decision under {@code mode}.
   *
   * @param onReceipt the decision just arrived while tailing (not the catch-up at start, not a
   *     reconcile): only then does a freeze or thaw measure the control delay
   */
  void act(FreezeIntent intent, Mode mode, String whyNotWritten, boolean onReceipt) throws InterruptedException {
    TaskId task = intent.task();
    Step step = DecisionPlanner.freeze(intent, mode, ledger.leases().holds(task), clock.millis());
    Outcome outcome;
    if (step instanceof Step.Skip skip) {
      metrics.skipped(skip.reason().name().toLowerCase(Locale.ROOT));
      return;
    } else if (step instanceof Step.Freeze freeze) {
      outcome = freeze(intent, freeze.expiresAtMs());
    } else if (step instanceof Step.Thaw) {
      outcome = thaw(task);
    } else if (step instanceof Step.LeaveAlone) {
      outcome = leaveAlone(task);
    } else {
      outcome = preview(intent, whyNotWritten);
    }
    // A renewal of a freeze this enforcer holds comes back UNCHANGED: only a change of state counts.
    if (onReceipt && outcome.status() == EnforcementStatus.APPLIED) {
      metrics.controlDelay(EnforcementKind.FREEZE, intent.ref(), clock.millis());
    }
    answers.answer(EnforcementKind.FREEZE, task, intent.ref(), outcome);
  }

  /**
   * Withdrawn: a freeze of ours ends now and joins the paced expiry queue, so withdrawing every
   * decision at once cannot release every waiting peak at once.
   */
  void withdrawn(TaskId task) {
    if (ledger.leases().holds(task)) {
      endLeaseNow(task);
    }
  }

  /** Thaws at most one group whose lease ran out, if the last expiry thaw is long enough ago. */
  void tick() throws InterruptedException {
    long nowMs = clock.millis();
    Optional<LeaseBook.Lease> due = ledger.leases().due(nowMs);
    if (due.isEmpty()) {
      return;
    }
    LeaseBook.Lease lease = due.get();
    ledger.leases().expiryThawAttempted(nowMs);
    Outcome thawed = actuator.thaw(lease.task());
    if (thawed.groupMissing()) {
      LOG.info("Lease of {} ran out; its group is gone", lease.task());
      release(lease.task());
    } else if (thawed.status() == EnforcementStatus.APPLIED || thawed.status() == EnforcementStatus.UNCHANGED) {
      release(lease.task());
      answers.publish(EnforcementKind.FREEZE, lease.task(), lease.ref(), new Outcome(EnforcementStatus.LEASE_EXPIRED,
          "lease ran out at " + Instant.ofEpochMilli(lease.expiresAtMs()) + " without renewal: " + thawed.detail(),
          null, false, false));
    } else {
      // Still ours and expired: retried after the interval, like any other due lease.
      answers.publish(EnforcementKind.FREEZE, lease.task(), lease.ref(),
          thawed.withDetail("lease ran out but thawing failed, will retry: " + thawed.detail()));
    }
  }

  /**
   * The memory reflex froze {@code freeze.task()} on its own (docs/enforcer.md "The memory reflex"):
   * under a reflex lease, saved before the freezer is written like any lease, answered
   * {@code REFLEX_FROZEN} naming the gate-tables record it acted on. From then on it is an ordinary
   * own freeze: a FREEZE decision renews it to its full lease (the gate adopted it), a THAW lifts it
   * (overruled), and otherwise its lease runs out ({@code LEASE_EXPIRED}). A group frozen by someone
   * else is left to them, silently: no decision asked for anything.
   *
   * @param table the gate-tables record whose row made the task watched
   * @param readAtNanos when the crossing reading was taken ({@link System#nanoTime()})
   */
  void reflexFreeze(ReflexRule.Freeze freeze, DecisionRef table, long leaseMs, long readAtNanos)
      throws InterruptedException {
    TaskId task = freeze.task();
    CgroupActuator.FreezerRead before = actuator.freezerState(task);
    if (before.failure() != null || before.state() != FreezerState.THAWED) {
      LOG.debug("Reflex: not freezing {}: {}", task, before.failure() != null ? before.failure().detail() : before.state());
      return;
    }
    long expiresAtMs = clock.millis() + leaseMs;
    try {
      ledger.hold(task, expiresAtMs, table);
    } catch (IOException e) {
      stateFileFailed("saving the reflex lease of " + task, e);
      answers.publish(EnforcementKind.FREEZE, task, table, Outcome.of(EnforcementStatus.FAILED, "reflex: nothing"
          + " written: the lease could not be saved to the state file (" + e.getMessage() + ")").withFrozen(false));
      return;
    }
    Outcome frozen = actuator.freeze(task);
    String why = "reflex: memory " + freeze.usageBytes() + " bytes crossed the threshold " + freeze.thresholdBytes()
        + " bytes while the gate admits no peak for it";
    switch (frozen.status()) {
      case APPLIED -> {
        metrics.reflexFreeze(System.nanoTime() - readAtNanos);
        answers.publish(EnforcementKind.FREEZE, task, table, new Outcome(EnforcementStatus.REFLEX_FROZEN, why + "; "
            + frozen.detail() + "; reflex lease until " + Instant.ofEpochMilli(expiresAtMs), null, true, false,
            freeze.usageBytes()));
      }
      case UNCHANGED -> release(task); // frozen by someone else in the meantime: theirs
      case FAILED -> {
        if (Boolean.TRUE.equals(frozen.frozen())) {
          endLeaseNow(task); // could not be thawed back: the expiry queue keeps trying
        } else {
          release(task);
        }
        answers.publish(EnforcementKind.FREEZE, task, table, frozen.withDetail(why + "; " + frozen.detail()));
      }
      default -> release(task); // gone or unsafe
    }
  }

  /** OFF: every group this enforcer froze is thawed at once (the operator's kill switch is not paced). */
  void thawAll(DecisionRef cause) throws InterruptedException {
    for (LeaseBook.Lease lease : ledger.leases().all()) {
      Outcome thawed = actuator.thaw(lease.task());
      if (thawed.groupMissing()) {
        release(lease.task());
        continue;
      }
      if (thawed.status() == EnforcementStatus.APPLIED || thawed.status() == EnforcementStatus.UNCHANGED) {
        release(lease.task());
        thawed = thawed.withDetail("enforcement OFF: thawed a group this enforcer froze: " + thawed.detail());
      } else {
        endLeaseNow(lease.task()); // still frozen by us: the expiry queue keeps trying
      }
      answers.publish(EnforcementKind.FREEZE, lease.task(), cause, thawed);
    }
  }

  /** Drops the leases of groups that no longer exist. */
  void pruneGone() {
    for (LeaseBook.Lease lease : ledger.leases().all()) {
      if (actuator.gone(lease.task())) {
        LOG.info("Group {} is gone: dropping its lease from the state file", lease.task());
        release(lease.task());
      }
    }
  }

  /**
   * Freezes a group, or renews this enforcer's freeze of it. A group already frozen by someone else
   * is left to them: freezing it would change nothing, and taking it over would let this enforcer
   * thaw what it did not freeze.
   */
  private Outcome freeze(FreezeIntent intent, long expiresAtMs) throws InterruptedException {
    TaskId task = intent.task();
    boolean renewal = ledger.leases().holds(task);
    if (!renewal) {
      CgroupActuator.FreezerRead before = actuator.freezerState(task);
      if (before.failure() != null) {
        return before.failure();
      }
      if (before.state() != FreezerState.THAWED) {
        return Outcome.of(EnforcementStatus.UNCHANGED, "already " + before.state() + " by someone else: left to them"
            + " (this enforcer only thaws what it froze)").withFrozen(true);
      }
    }
    try {
      ledger.hold(task, expiresAtMs, intent.ref());
    } catch (IOException e) {
      stateFileFailed("saving the lease of " + task, e);
      if (!renewal) {
        return Outcome.of(EnforcementStatus.FAILED, "nothing written: the lease could not be saved to the state"
            + " file, so a restart could not thaw the group (" + e.getMessage() + ")").withFrozen(false);
      }
      // A renewal that is not saved keeps the old deadline on disk: after a crash the group thaws early, never late.
    }
    Outcome frozen = actuator.freeze(task);
    String until = "lease until " + Instant.ofEpochMilli(expiresAtMs);
    switch (frozen.status()) {
      case APPLIED:
        return frozen.withDetail(frozen.detail() + "; " + until);
      case UNCHANGED:
        if (renewal) {
          return frozen.withDetail("still frozen; " + until);
        }
        release(task); // frozen by someone else in the meantime: not ours
        return frozen.withDetail("frozen by someone else meanwhile: left to them");
      case FAILED:
        if (Boolean.TRUE.equals(frozen.frozen())) {
          endLeaseNow(task); // could not be thawed back: the expiry queue keeps trying
        } else {
          release(task);
        }
        return frozen;
      default:
        release(task); // gone or unsafe
        return frozen;
    }
  }

  private Outcome thaw(TaskId task) throws InterruptedException {
    Outcome thawed = actuator.thaw(task);
    if (thawed.groupMissing() || thawed.status() == EnforcementStatus.APPLIED
        || thawed.status() == EnforcementStatus.UNCHANGED) {
      release(task);
    } else {
      endLeaseNow(task); // still frozen by us: the expiry queue retries it, paced
    }
    return thawed;
  }

  private Outcome leaveAlone(TaskId task) {
    CgroupActuator.FreezerRead now = actuator.freezerState(task);
    if (now.failure() != null) {
      return now.failure();
    }
    boolean frozen = now.state() != FreezerState.THAWED;
    return Outcome.of(EnforcementStatus.UNCHANGED, frozen
        ? now.state() + " by someone else: left as it is (this enforcer only thaws what it froze)"
        : "not frozen").withFrozen(frozen);
  }

  private Outcome preview(FreezeIntent intent, String whyNotWritten) {
    CgroupActuator.FreezerRead now = actuator.freezerState(intent.task());
    if (now.failure() != null) {
      return now.failure();
    }
    String would = intent.freeze() ? "freeze it, lease until " + Instant.ofEpochMilli(intent.expiresAtMs()) : "thaw it";
    return Outcome.of(EnforcementStatus.DRY_RUN, whyNotWritten + ": would " + would + "; freezer " + now.state())
        .withFrozen(now.state() != FreezerState.THAWED);
  }

  private void release(TaskId task) {
    try {
      ledger.release(task);
    } catch (IOException e) {
      stateFileFailed("dropping the lease of " + task, e);
    }
  }

  private void endLeaseNow(TaskId task) {
    try {
      ledger.endLeaseNow(task, clock.millis());
    } catch (IOException e) {
      stateFileFailed("ending the lease of " + task, e);
    }
  }

  private void stateFileFailed(String what, IOException e) {
    metrics.stateFileFailed();
    LOG.error("State file: {} failed: {}", what, e.getMessage());
  }
}
