package io.quotaflow.enforcer;

import io.quotaflow.cgroups.TaskId;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.GateTable;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The enforcer's work for one node, on one thread: routes each record of its feed, keeps the
 * latest decision per task ({@link TaskBook}) and the mode in force, and hands decisions to
 * {@link CpuEnforcement} and {@link FreezeEnforcement}. docs/enforcer.md states the rules.
 *
 * <p>Lifecycle: {@link #absorb} every record up to the end offsets at start, then
 * {@link #startEnforcing} once, then {@link #handle} each new record, {@link #tick} often, and
 * {@link #reflex} at the reflex's rate.
 */
final class NodeEnforcement {

  private static final Logger LOG = LoggerFactory.getLogger(NodeEnforcement.class);

  private final String node;
  private final boolean dryRunFlag;
  private final NodeLedger ledger;
  private final EnforcerMetrics metrics;
  private final Clock clock;
  private final TaskBook book = new TaskBook();
  private final ClusterSettings cluster = new ClusterSettings();
  private final Answers answers;
  private final CpuEnforcement cpu;
  private final FreezeEnforcement freeze;
  private final ReflexWatcher watcher;
  private final long reflexLeaseMs;
  private final String gateTopic;

  /** The node's last gate table (null: none, withdrawn, or one that did not decode) and where it was read. */
  private GateTable gateTable;
  private DecisionRef gateRef;
  /** The reflex's readings of the tasks it watched last time, bytes. */
  private Map<TaskId, Long> lastReadings = Map.of();
  /** A gate table arrived while tailing since the reflex's last round (ReflexRule.toFreeze). */
  private boolean tableSinceLastRound;

  /** While catching up: the latest decision record of each of the node's keys, per topic. */
  private final Map<String, FeedRecord> latestAtStart = new LinkedHashMap<>();
  private DecisionRef clusterRef;
  private Mode mode;

  private volatile Mode modeView;
  private volatile int taskCount;
  private volatile int frozenCount;
  private volatile long newestDecisionTsMs = -1;
  private volatile int reflexWatched;

  /**
   * @param watcher reads the memory of the tasks the reflex watches
   * @param reflexLeaseMs how long a reflex freeze holds unless the gate adopts or overrules it
   * @param gateTopic the gate-tables topic's name: a lease naming it is a reflex lease
   */
  NodeEnforcement(String node, boolean dryRunFlag, CgroupActuator actuator, NodeLedger ledger,
      ResultPublisher results, EnforcerMetrics metrics, Clock clock, ReflexWatcher watcher, long reflexLeaseMs,
      String gateTopic) {
    this.node = node;
    this.dryRunFlag = dryRunFlag;
    this.ledger = ledger;
    this.metrics = metrics;
    this.clock = clock;
    this.answers = new Answers(node, book, results, metrics, clock);
    this.cpu = new CpuEnforcement(actuator, ledger, answers, metrics, clock);
    this.freeze = new FreezeEnforcement(actuator, ledger, answers, metrics, clock);
    this.watcher = watcher;
    this.reflexLeaseMs = reflexLeaseMs;
    this.gateTopic = gateTopic;
    this.frozenCount = ledger.leases().all().size();
    metrics.gauges(() -> taskCount, () -> frozenCount, () -> reflexWatched);
  }

  // ---- start: read to the end offsets, then act on the latest decision per task ----

  /** A record read while catching up: remembered, not acted on. */
  void absorb(FeedRecord record) {
    if (record instanceof FeedRecord.Cluster c) {
      acceptCluster(c);
      return;
    }
    if (isGate(record)) {
      onGate(record);
      return;
    }
    if (isClusterNoise(record)) {
      return;
    }
    if (Admission.of(node, record.key(), null, null) instanceof Admission.OtherNode) {
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
    ledger.savedUnderOtherCgroups().ifPresent(saved -> LOG.warn("The state file was saved for other cgroups ({});"
        + " values of groups that no longer exist are dropped", saved));
    cpu.pruneGone();
    freeze.pruneGone();
    setMode(Mode.of(cluster.enforcement(), dryRunFlag));
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
    } else if (isGate(record)) {
      onGate(record);
      tableSinceLastRound = true; // not at start: a table absorbed then may be old
    } else if (!isClusterNoise(record)) {
      handleDecision(record, false);
    }
    updateViews();
  }

  /** Lease expiry: at most one thaw per call, paced by the lease book. */
  void tick() throws InterruptedException {
    if (mode != null) {
      freeze.tick();
      updateViews();
    }
  }

  /**
   * One round of the memory reflex: reads the tasks the last gate table lets it watch and freezes
   * those that crossed their threshold since the last round ({@link ReflexRule}).
   */
  void reflex() throws InterruptedException {
    if (mode == null) {
      return;
    }
    Map<TaskId, Long> watched = ReflexRule.watched(gateTable, node, mode);
    Map<TaskId, ReflexWatcher.Reading> readings = watcher.read(watched.keySet());
    Map<TaskId, Long> current = new HashMap<>();
    readings.forEach((task, reading) -> current.put(task, reading.usageBytes()));
    List<ReflexRule.Freeze> freezes =
        ReflexRule.toFreeze(watched, ledger.leases()::holds, lastReadings, current, tableSinceLastRound);
    lastReadings = current;
    tableSinceLastRound = false;
    reflexWatched = watched.size();
    for (ReflexRule.Freeze each : freezes) {
      freeze.reflexFreeze(each, gateRef, reflexLeaseMs, readings.get(each.task()).readAtNanos());
    }
    if (!freezes.isEmpty()) {
      updateViews();
    }
  }

  /** Closes the reflex's open cgroup files. */
  void closeReflex() {
    watcher.close();
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
    setMode(next);
    switch (transition) {
      case RECONCILE -> reconcile();
      case RESTORE -> restoreAll(record.ref());
      case NOTHING -> { }
    }
  }

  private void setMode(Mode next) {
    mode = next;
    modeView = next;
    metrics.mode(next);
  }

  // ---- gate table ----

  private static boolean isGate(FeedRecord record) {
    return record instanceof FeedRecord.Gate
        || record instanceof FeedRecord.Undecodable u && u.topicKind() == FeedRecord.Kind.GATE;
  }

  /**
   * The node's gate table, keyed by node: the latest one replaces the last. A tombstone, or a table
   * that does not decode or names another node, leaves the reflex without one: it freezes nothing
   * it cannot read the gate's word for, and the gate still gates.
   */
  private void onGate(FeedRecord record) {
    if (!node.equals(record.key())) {
      metrics.skipped(record.key() == null ? "unkeyed" : "other_node");
      return;
    }
    if (record instanceof FeedRecord.Undecodable u) {
      metrics.undecodable(u.ref().topic());
      LOG.warn("Gate table {} does not decode ({}); the reflex watches nothing until the next one", u.ref(), u.error());
      gateTable = null;
    } else if (record instanceof FeedRecord.Gate g && g.value() != null && !node.equals(g.value().getNode())) {
      metrics.refused(Admission.Why.KEY_VALUE_MISMATCH);
      LOG.warn("Gate table {} keyed {} names node {}; the reflex watches nothing until the next one", g.ref(),
          g.key(), g.value().getNode());
      gateTable = null;
    } else {
      gateTable = ((FeedRecord.Gate) record).value();
    }
    gateRef = record.ref();
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

  /**
   * Back to ON: every task's latest decision again, as at start. Not on receipt: the time since
   * those samples is the time enforcement was off, not a control delay.
   */
  private void reconcile() throws InterruptedException {
    for (CpuIntent intent : book.cpuIntents()) {
      cpu.act(intent, mode, whyNothingWritten(), false);
    }
    for (FreezeIntent intent : book.freezeIntents()) {
      freeze.act(intent, mode, whyNothingWritten(), false);
    }
  }

  /** OFF: original values back and own freezes lifted; results name the record that switched it off. */
  private void restoreAll(DecisionRef cause) throws InterruptedException {
    cpu.restoreAll(cause);
    freeze.thawAll(cause);
  }

  private String whyNothingWritten() {
    return "nothing written (" + (dryRunFlag ? "--dry-run" : "enforcement " + cluster.enforcement()) + ")";
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
      LOG.warn("Skipping {} decision {}: {}", kind, record.ref(), unkeyed.detail());
      return;
    }
    boolean tombstone = !(record instanceof FeedRecord.Undecodable) && valueNode == null;
    if (admission instanceof Admission.Refused refused) {
      metrics.refused(refused.why());
      if (tombstone) {
        metrics.skipped("withdrawn");
      } else {
        answers.refuse(kind, record.key(), refused.rawTask(), record.ref(),
            Outcome.of(EnforcementStatus.REJECTED, refused.detail()));
      }
      return;
    }
    TaskId task = ((Admission.Mine) admission).task();
    if (record instanceof FeedRecord.Undecodable u) {
      metrics.undecodable(u.ref().topic());
      answers.publish(kind, task, record.ref(), Outcome.of(EnforcementStatus.REJECTED,
          "the decision does not decode: " + u.error()));
      return;
    }
    newestDecisionTsMs = Math.max(newestDecisionTsMs, record.ref().recordTimestampMs());
    if (!atStart) {
      metrics.decisionDelay(kind, clock.millis() - record.ref().recordTimestampMs());
    }
    if (atStart && record instanceof FeedRecord.Freeze && olderThanReflexFreeze(task, record.ref())) {
      // The gate's word from before the reflex froze the task: the reflex lease stands until a newer one or its end.
      metrics.skipped("before_reflex");
      return;
    }
    if (record instanceof FeedRecord.Cpu c) {
      onCpu(task, c.ref(), c.value(), atStart);
    } else if (record instanceof FeedRecord.Freeze f) {
      onFreeze(task, f.ref(), f.value(), atStart);
    }
  }

  /**
   * Whether the task is held under a reflex lease (one naming a gate table) and the decision is
   * older than that table: the streams app decided it before the reflex acted, so on a restart it
   * must not lift the reflex freeze. A decision the gate made since is newer and applies as usual.
   */
  private boolean olderThanReflexFreeze(TaskId task, DecisionRef decision) {
    return ledger.leases().lease(task)
        .filter(lease -> lease.ref().topic().equals(gateTopic))
        .filter(lease -> decision.recordTimestampMs() < lease.ref().recordTimestampMs())
        .isPresent();
  }

  private static EnforcementKind kindOf(FeedRecord record) {
    if (record instanceof FeedRecord.Undecodable u) {
      return u.topicKind() == FeedRecord.Kind.FREEZE ? EnforcementKind.FREEZE : EnforcementKind.CPU;
    }
    return record instanceof FeedRecord.Freeze ? EnforcementKind.FREEZE : EnforcementKind.CPU;
  }

  private void onCpu(TaskId task, DecisionRef ref, CpuDecision decision, boolean atStart) {
    if (decision == null) {
      book.withdrawCpu(task);
      metrics.taskLimits(task, null);
      metrics.skipped("withdrawn");
      cpu.withdrawn(task);
      return;
    }
    CpuIntent intent;
    try {
      intent = CpuIntent.of(ref, task, decision);
    } catch (IllegalArgumentException e) {
      answers.publish(EnforcementKind.CPU, task, ref, Outcome.of(EnforcementStatus.REJECTED, e.getMessage()));
      return;
    }
    book.put(intent);
    metrics.taskLimits(task, intent.limits());
    cpu.act(intent, mode, whyNothingWritten(), !atStart);
  }

  private void onFreeze(TaskId task, DecisionRef ref, FreezeDecision decision, boolean atStart)
      throws InterruptedException {
    if (decision == null) {
      book.withdrawFreeze(task);
      metrics.skipped("withdrawn");
      freeze.withdrawn(task);
      return;
    }
    FreezeIntent intent;
    try {
      intent = FreezeIntent.received(ref, task, decision, clock.millis(), atStart, cluster.freezeLeaseMs());
    } catch (IllegalArgumentException e) {
      answers.publish(EnforcementKind.FREEZE, task, ref, Outcome.of(EnforcementStatus.REJECTED, e.getMessage()));
      return;
    }
    book.put(intent);
    freeze.act(intent, mode, whyNothingWritten(), !atStart);
  }

  private void updateViews() {
    taskCount = book.taskCount();
    frozenCount = ledger.leases().all().size();
  }
}
