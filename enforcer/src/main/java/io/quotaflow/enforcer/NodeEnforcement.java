package io.quotaflow.enforcer;

import io.quotaflow.cgroups.CpuSettings;
import io.quotaflow.cgroups.CpuValues;
import io.quotaflow.cgroups.FreezerState;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.FreezeDecision;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The enforcer's work for one node, on one thread: the records of its feed in, cgroup writes and
 * results out. It keeps the latest decision of every task ({@link TaskBook}), asks
 * {@link DecisionPlanner} what each one calls for under the mode in force, has
 * {@link CgroupActuator} do it, keeps {@link NodeLedger} (originals, leases) ahead of every write,
 * and publishes the outcome. docs/enforcer.md states the rules; this class only sequences them.
 *
 * <p>Lifecycle: {@link #absorb} every record up to the end offsets at start, then
 * {@link #startEnforcing} once, then {@link #handle} each new record and {@link #tick} often.
 */
final class NodeEnforcement {

  private static final Logger LOG = LoggerFactory.getLogger(NodeEnforcement.class);

  private final String node;
  private final boolean dryRunFlag;
  private final CgroupActuator actuator;
  private final NodeLedger ledger;
  private final ResultPublisher results;
  private final EnforcerMetrics metrics;
  private final Clock clock;

  private final TaskBook book = new TaskBook();
  private final ClusterSettings cluster = new ClusterSettings();
  /** While catching up: the latest decision record of each of the node's keys, per topic. */
  private final Map<String, FeedRecord> latestAtStart = new LinkedHashMap<>();
  private DecisionRef clusterRef;
  private Mode mode;

  private volatile Mode modeView;
  private volatile int taskCount;
  private volatile int frozenCount;
  private volatile long newestDecisionTsMs = -1;

  NodeEnforcement(String node, boolean dryRunFlag, CgroupActuator actuator, NodeLedger ledger,
      ResultPublisher results, EnforcerMetrics metrics, Clock clock) {
    this.node = node;
    this.dryRunFlag = dryRunFlag;
    this.actuator = actuator;
    this.ledger = ledger;
    this.results = results;
    this.metrics = metrics;
    this.clock = clock;
    this.frozenCount = ledger.leases().all().size();
    metrics.gauges(() -> taskCount, () -> frozenCount);
  }

  // ---- start: read to the end offsets, then act on the latest decision per task ----

  /** A record read while catching up: remembered, not acted on. */
  void absorb(FeedRecord record) {
    if (record instanceof FeedRecord.Cluster c) {
      acceptCluster(c);
      return;
    }
    if (isClusterNoise(record)) {
      return;
    }
    Admission admission = Admission.of(node, record.key(), null, null);
    if (admission instanceof Admission.OtherNode) {
      metrics.skipped("other_node");
      return;
    }
    String slot = record.ref().topic() + "\u0000" + record.key();
    latestAtStart.remove(slot); // re-inserted last: the latest records in the order they were written
    latestAtStart.put(slot, record);
  }

  /**
   * Caught up: forgets groups that are gone, sets the mode from the cluster config, restores
   * everything on OFF, and answers the latest decision of every task under the mode in force.
   */
  void startEnforcing() throws InterruptedException {
    ledger.savedUnderOtherCgroups().ifPresent(saved -> LOG.warn("The state file {} was saved for other cgroups ({});"
        + " values of groups that no longer exist are dropped", saved, actuator));
    pruneGone();
    mode = Mode.of(cluster.enforcement(), dryRunFlag);
    metrics.mode(mode);
    modeView = mode;
    LOG.info("Node {}: enforcement {}{}; {} latest decisions to answer, {} groups with original values, {} frozen by"
        + " this enforcer", node, mode, dryRunFlag ? " (--dry-run)" : "", latestAtStart.size(),
        ledger.tasksWithOriginals().size(), ledger.leases().all().size());
    if (mode == Mode.OFF) {
      restoreAll(clusterRef);
    }
    for (FeedRecord record : latestAtStart.values()) {
      handleDecision(record, true);
    }
    latestAtStart.clear();
    updateViews();
  }

  // ---- tailing ----

  void handle(FeedRecord record) throws InterruptedException {
    if (record instanceof FeedRecord.Cluster c) {
      onCluster(c);
    } else if (!isClusterNoise(record)) {
      handleDecision(record, false);
    }
    updateViews();
  }

  /** Thaws at most one group whose lease ran out, if the last expiry thaw is long enough ago. */
  void tick() throws InterruptedException {
    if (mode == null) {
      return;
    }
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
      publish(EnforcementKind.FREEZE, lease.task(), lease.ref(), new Outcome(EnforcementStatus.LEASE_EXPIRED,
          "lease ran out at " + Instant.ofEpochMilli(lease.expiresAtMs()) + " without renewal: " + thawed.detail(),
          null, false, false));
    } else {
      // Still ours and expired: retried after the interval, like any other due lease.
      publish(EnforcementKind.FREEZE, lease.task(), lease.ref(), thawed.withDetail(
          "lease ran out but thawing failed, will retry: " + thawed.detail()));
    }
    updateViews();
  }

  Mode mode() {
    return modeView;
  }

  int taskCount() {
    return taskCount;
  }

  int frozenCount() {
    return frozenCount;
  }

  /** Record timestamp of the newest decision handled, epoch ms; -1 before the first. */
  long newestDecisionTsMs() {
    return newestDecisionTsMs;
  }

  // ---- cluster config ----

  private void acceptCluster(FeedRecord.Cluster record) {
    cluster.accept(record.key(), record.value());
    clusterRef = record.ref();
  }

  private void onCluster(FeedRecord.Cluster record) throws InterruptedException {
    acceptCluster(record);
    Mode next = Mode.of(cluster.enforcement(), dryRunFlag);
    Mode.Transition transition = mode.to(next);
    if (next != mode) {
      LOG.info("Node {}: enforcement {} -> {} (cluster-config {}{})", node, mode, next, record.ref(),
          dryRunFlag ? ", --dry-run" : "");
    }
    mode = next;
    modeView = next;
    metrics.mode(next);
    switch (transition) {
      case RECONCILE -> reconcile();
      case RESTORE -> restoreAll(record.ref());
      case NOTHING -> { }
    }
  }

  /** Records of cluster-config that do not decode: the mode in force stays. */
  private boolean isClusterNoise(FeedRecord record) {
    if (record instanceof FeedRecord.Undecodable u && u.topicKind() == FeedRecord.Kind.CLUSTER) {
      metrics.undecodable(u.ref().topic());
      LOG.warn("Skipping cluster-config record {} that does not decode ({}); enforcement stays as it is",
          u.ref(), u.error());
      return true;
    }
    return false;
  }

  /** Back to ON: every task's latest decision again, as at start. */
  private void reconcile() throws InterruptedException {
    for (CpuIntent intent : book.cpuIntents()) {
      actCpu(intent);
    }
    for (FreezeIntent intent : book.freezeIntents()) {
      actFreeze(intent);
    }
  }

  /**
   * OFF: every group Quotaflow wrote gets its original values back and every group this enforcer
   * froze is thawed, at once (the operator's kill switch; only lease expiry is paced). Results name
   * the cluster-config record that switched enforcement off.
   */
  private void restoreAll(DecisionRef cause) throws InterruptedException {
    for (TaskId task : ledger.tasksWithOriginals()) {
      CpuValues original = ledger.original(task).orElseThrow();
      Outcome restored = actuator.writeCpu(task, original.toSettings());
      if (restored.groupMissing()) {
        LOG.info("Nothing to restore for {}: its group is gone", task);
        forgetOriginal(task);
        continue;
      }
      if (restored.status() == EnforcementStatus.APPLIED || restored.status() == EnforcementStatus.UNCHANGED) {
        forgetOriginal(task);
        restored = restored.withDetail("enforcement OFF: restored the values from before Quotaflow first wrote ("
            + Values.of(original) + "): " + restored.detail());
      }
      publish(EnforcementKind.CPU, task, cause, restored);
    }
    for (LeaseBook.Lease lease : ledger.leases().all()) {
      Outcome thawed = actuator.thaw(lease.task());
      if (thawed.groupMissing()) {
        release(lease.task());
        continue;
      }
      if (thawed.status() == EnforcementStatus.APPLIED || thawed.status() == EnforcementStatus.UNCHANGED) {
        release(lease.task());
        thawed = thawed.withDetail("enforcement OFF: thawed a group this enforcer froze: " + thawed.detail());
      }
      publish(EnforcementKind.FREEZE, lease.task(), cause, thawed);
    }
  }

  // ---- decisions ----

  private void handleDecision(FeedRecord record, boolean atStart) throws InterruptedException {
    EnforcementKind kind = kindOf(record);
    String valueNode = null;
    String valueTask = null;
    if (record instanceof FeedRecord.Cpu c && c.value() != null) {
      valueNode = c.value().getNode();
      valueTask = c.value().getTask();
    } else if (record instanceof FeedRecord.Freeze f && f.value() != null) {
      valueNode = f.value().getNode();
      valueTask = f.value().getTask();
    }
    Admission admission = Admission.of(node, record.key(), valueNode, valueTask);
    if (admission instanceof Admission.OtherNode) {
      metrics.skipped("other_node");
      return;
    }
    if (admission instanceof Admission.Unkeyed unkeyed) {
      metrics.skipped("unkeyed");
      LOG.warn("Skipping {} of {}: {}", record.ref(), kind, unkeyed.detail());
      return;
    }
    boolean tombstone = !(record instanceof FeedRecord.Undecodable) && valueNode == null;
    if (admission instanceof Admission.Refused refused) {
      if (tombstone) {
        metrics.skipped("withdrawn");
      } else {
        results.publish(record.key(), refused.rawTask(), kind, record.ref(),
            Outcome.of(EnforcementStatus.REJECTED, refused.detail()), clock.millis());
      }
      return;
    }
    TaskId task = ((Admission.Mine) admission).task();
    if (record instanceof FeedRecord.Undecodable u) {
      metrics.undecodable(u.ref().topic());
      publish(kind, task, record.ref(), Outcome.of(EnforcementStatus.REJECTED, "the decision does not decode: " + u.error()));
      return;
    }
    newestDecisionTsMs = Math.max(newestDecisionTsMs, record.ref().recordTimestampMs());
    if (!atStart) {
      metrics.decisionDelay(kind, clock.millis() - record.ref().recordTimestampMs());
    }
    if (record instanceof FeedRecord.Cpu c) {
      onCpu(task, c.ref(), c.value());
    } else if (record instanceof FeedRecord.Freeze f) {
      onFreeze(task, f.ref(), f.value(), atStart);
    }
  }

  private static EnforcementKind kindOf(FeedRecord record) {
    if (record instanceof FeedRecord.Undecodable u) {
      return u.topicKind() == FeedRecord.Kind.FREEZE ? EnforcementKind.FREEZE : EnforcementKind.CPU;
    }
    return record instanceof FeedRecord.Freeze ? EnforcementKind.FREEZE : EnforcementKind.CPU;
  }

  private void onCpu(TaskId task, DecisionRef ref, CpuDecision decision) throws InterruptedException {
    if (decision == null) {
      // Withdrawn (the task is gone for the job system, or idle): nothing to write; the group keeps
      // its values, and its originals stay for OFF as long as the group exists.
      book.withdrawCpu(task);
      metrics.skipped("withdrawn");
      if (ledger.original(task).isPresent() && actuator.gone(task)) {
        forgetOriginal(task);
      }
      return;
    }
    CpuIntent intent;
    try {
      intent = CpuIntent.of(ref, task, decision);
    } catch (IllegalArgumentException e) {
      publish(EnforcementKind.CPU, task, ref, Outcome.of(EnforcementStatus.REJECTED, e.getMessage()));
      return;
    }
    book.put(intent);
    actCpu(intent);
  }

  private void onFreeze(TaskId task, DecisionRef ref, FreezeDecision decision, boolean atStart)
      throws InterruptedException {
    if (decision == null) {
      // Withdrawn: a freeze of ours ends now and joins the paced expiry queue, so withdrawing
      // every decision at once cannot release every peak at once.
      book.withdrawFreeze(task);
      metrics.skipped("withdrawn");
      if (ledger.leases().holds(task)) {
        endLeaseNow(task);
      }
      return;
    }
    FreezeIntent intent;
    try {
      intent = FreezeIntent.received(ref, task, decision, clock.millis(), atStart, cluster.freezeLeaseMs());
    } catch (IllegalArgumentException e) {
      publish(EnforcementKind.FREEZE, task, ref, Outcome.of(EnforcementStatus.REJECTED, e.getMessage()));
      return;
    }
    book.put(intent);
    actFreeze(intent);
  }

  private void actCpu(CpuIntent intent) {
    Step step = DecisionPlanner.cpu(intent, mode);
    Outcome outcome;
    if (step instanceof Step.Skip skip) {
      metrics.skipped(skip.reason().name().toLowerCase(Locale.ROOT));
      return;
    } else if (step instanceof Step.WriteCpu write) {
      outcome = writeCpu(intent.task(), write.settings());
    } else {
      outcome = previewCpu(intent);
    }
    report(EnforcementKind.CPU, intent.task(), intent.ref(), outcome);
  }

  /** Saves the group's values before the first write to it (write-ahead), then writes. */
  private Outcome writeCpu(TaskId task, CpuSettings settings) {
    if (ledger.original(task).isEmpty()) {
      CgroupActuator.CpuRead before = actuator.readCpu(task);
      if (before.failure() != null) {
        return before.failure();
      }
      try {
        ledger.recordOriginal(task, before.values());
      } catch (IOException e) {
        stateFileFailed("saving the original values of " + task, e);
        return Outcome.of(EnforcementStatus.FAILED, "nothing written: the group's original values could not be"
            + " saved to the state file, so OFF could not restore them (" + e.getMessage() + ")").withCpu(before.values());
      }
    }
    Outcome outcome = actuator.writeCpu(task, settings);
    if (outcome.groupMissing()) {
      forgetOriginal(task);
    }
    return outcome;
  }

  private Outcome previewCpu(CpuIntent intent) {
    CgroupActuator.CpuRead now = actuator.readCpu(intent.task());
    if (now.failure() != null) {
      return now.failure();
    }
    return Outcome.of(EnforcementStatus.DRY_RUN, whyNothingWritten() + ": would write " + Values.of(intent.settings())
        + "; the group has " + Values.of(now.values())).withCpu(now.values());
  }

  private void actFreeze(FreezeIntent intent) throws InterruptedException {
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
      outcome = previewFreeze(intent);
    }
    report(EnforcementKind.FREEZE, task, intent.ref(), outcome);
  }

  /**
   * Freezes a group, or renews this enforcer's freeze of it. A group already frozen by someone else
   * is left to them: freezing it would change nothing, and taking it over would let this enforcer
   * thaw what it did not freeze. The lease is saved before the freezer is written.
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
      // A renewal that is not saved keeps the old deadline on disk: the group thaws early, never late.
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

  private Outcome previewFreeze(FreezeIntent intent) {
    CgroupActuator.FreezerRead now = actuator.freezerState(intent.task());
    if (now.failure() != null) {
      return now.failure();
    }
    String would = intent.freeze() ? "freeze it, lease until " + Instant.ofEpochMilli(intent.expiresAtMs()) : "thaw it";
    return Outcome.of(EnforcementStatus.DRY_RUN, whyNothingWritten() + ": would " + would + "; freezer " + now.state())
        .withFrozen(now.state() != FreezerState.THAWED);
  }

  private String whyNothingWritten() {
    return "nothing written (" + (dryRunFlag ? "--dry-run" : "enforcement " + cluster.enforcement()) + ")";
  }

  // ---- results and the ledger ----

  /** Publishes an outcome; "group does not exist" only once per decision (docs/enforcer.md). */
  private void report(EnforcementKind kind, TaskId task, DecisionRef ref, Outcome outcome) {
    if (outcome.groupMissing()) {
      if (!book.firstMissingReport(kind, task, ref)) {
        metrics.skipped("missing_reported");
        return;
      }
    } else {
      book.groupFound(kind, task);
    }
    publish(kind, task, ref, outcome);
  }

  private void publish(EnforcementKind kind, TaskId task, DecisionRef ref, Outcome outcome) {
    results.publish(node + "/" + task.value(), task.value(), kind, ref, outcome, clock.millis());
  }

  private void pruneGone() {
    for (TaskId task : ledger.tasksWithOriginals()) {
      if (actuator.gone(task)) {
        LOG.info("Group {} is gone: dropping its original values from the state file", task);
        forgetOriginal(task);
      }
    }
    for (LeaseBook.Lease lease : ledger.leases().all()) {
      if (actuator.gone(lease.task())) {
        LOG.info("Group {} is gone: dropping its lease from the state file", lease.task());
        release(lease.task());
      }
    }
  }

  private void forgetOriginal(TaskId task) {
    try {
      ledger.forgetOriginal(task);
    } catch (IOException e) {
      stateFileFailed("dropping the original values of " + task, e);
    }
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

  private void updateViews() {
    taskCount = book.taskCount();
    frozenCount = ledger.leases().all().size();
  }
}
