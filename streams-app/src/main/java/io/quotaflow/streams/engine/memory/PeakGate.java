package io.quotaflow.streams.engine.memory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Memory peak gating for one node (DESIGN §4, seed 004): lets only a bounded number of non-interactive tasks run
 * near their memory peak at once, freezing the others in a FIFO queue until a slot frees.
 *
 * <p>Plain Java: inputs carry their own stream time and nothing reads a clock, so the same inputs in the same order
 * give the same decisions. The working state is mutable for speed; {@link #snapshot()} and {@link #restore} turn
 * it into and back from a plain value for a changelogged store.
 */
public final class PeakGate {

  private static final Comparator<TaskEntry> QUEUE_ORDER =
      Comparator.<TaskEntry>comparingLong(e -> e.waitingSinceMs).thenComparing(e -> e.task);

  private final String node;
  private final ProfileLookup profiles;
  private final TreeMap<String, TaskEntry> tasks = new TreeMap<>();
  /** Tasks changed or removed since the last {@link #drainChanges()}: what a processor writes back. */
  private final TreeSet<String> dirty = new TreeSet<>();
  private final PeakSlotAdmission.Sizes sizes = new PeakSlotAdmission.Sizes() {
    @Override
    public long peakBytes(TaskEntry task) {
      return PeakGate.this.peakBytes(task);
    }

    @Override
    public long thresholdBytes(TaskEntry task) {
      Long threshold = PeakGate.this.thresholdBytes(task);
      return threshold == null ? 0 : threshold;
    }
  };
  private PeakGateConfig config;
  private long streamTimeMs = Long.MIN_VALUE;
  private long lateSamples;
  /**
   * Moves on at each {@link #profilesChanged()}: a task's profile looked up under an older one is looked up again.
   * The table asks for every live task's profile on every call, so a lookup per row per sample was measurable.
   */
  private long profilesVersion;
  /** See {@link #tableStamp()}. */
  private long tableStamp;
  /**
   * No live task can time out before this stream time, so {@link #expireIdle} looks at the tasks only from then
   * on: a lower bound, as a sample only moves its own task's timeout later. Looking at every task of the node on
   * every sample was ~3 % of the stream threads' CPU in {@code bench cpu}, and grows with the tasks per node.
   */
  private long idleScanDueMs = Long.MIN_VALUE;

  public PeakGate(String node, PeakGateConfig config, ProfileLookup profiles) {
    this.node = Objects.requireNonNull(node, "node");
    this.config = Objects.requireNonNull(config, "config");
    this.profiles = Objects.requireNonNull(profiles, "profiles");
  }

  /**
   * The lookup's profiles may have changed (one was learned or withdrawn): what the gate kept of them is looked
   * up afresh. A gate keeps each task's profile from its first lookup until this is called.
   */
  public void profilesChanged() {
    profilesVersion++;
    tableStamp++;
  }

  /**
   * Moves on whenever what {@link #table()} decides may change: a task comes, goes, changes role or place in the
   * queue, its spec, its profile or its largest usage (the peak of last resort) changes, or the settings do. In
   * COUNT and OFF modes two calls of {@link #table()} at one stamp give tables with the same decisions
   * ({@link GateTable#sameDecisionsAs}), so a caller that judged the table at a stamp need not build it again
   * until the stamp moves: building it after every sample was 4.4 % of the stream threads' CPU in {@code bench
   * cpu}. In BUDGET mode a usage alone moves the table (bytes left, and who fits), which this does not follow.
   */
  public long tableStamp() {
    return tableStamp;
  }

  /** Continues from a stored {@link #snapshot()}; profiles are looked up afresh, they are not part of the state. */
  public static PeakGate restore(PeakGateState state, ProfileLookup profiles) {
    PeakGate gate = new PeakGate(state.node(), state.config(), profiles);
    gate.streamTimeMs = state.streamTimeMs();
    gate.lateSamples = state.lateSamples();
    for (TaskGateState t : state.tasks()) {
      gate.tasks.put(t.task(), TaskEntry.of(t));
    }
    return gate;
  }

  /**
   * The tasks changed or forgotten since the last call, so that a processor keeping one record per task
   * rewrites only those (a sample touches one task, not the node).
   */
  public Changes drainChanges() {
    List<TaskGateState> changed = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    for (String task : dirty) {
      TaskEntry e = tasks.get(task);
      if (e == null) {
        removed.add(task);
      } else {
        changed.add(e.state());
      }
    }
    dirty.clear();
    return new Changes(changed, removed);
  }

  /** What {@link #drainChanges()} returns: tasks to write again, tasks to delete. */
  public record Changes(List<TaskGateState> changed, List<String> removed) {
    public Changes {
      changed = List.copyOf(changed);
      removed = List.copyOf(removed);
    }
  }

  public PeakGateState snapshot() {
    List<TaskGateState> states = new ArrayList<>(tasks.size());
    for (TaskEntry e : tasks.values()) {
      states.add(e.state());
    }
    return new PeakGateState(node, config, streamTimeMs, lateSamples, states);
  }

  /** A sample of a task on this node. */
  public List<GateDecision> onSample(MemorySample sample) {
    TaskEntry entry = tasks.get(sample.task());
    if (entry != null && sample.tsMs() < entry.lastSeenMs) {
      // Older than what the gate already acted on: acting on it would undo a newer observation.
      lateSamples++;
      return List.of();
    }
    List<GateDecision> out = new ArrayList<>();
    advanceClock(sample.tsMs(), out);
    dirty.add(sample.task());
    entry = tasks.get(sample.task());
    if (sample.state() == CgroupState.GONE) {
      if (entry != null) {
        // The cgroup is gone: a THAW would have nothing to act on, and its slot or queue place simply frees.
        if (entry.decisionPublished) {
          out.add(GateDecision.forget(node, entry.task, streamTimeMs));
          entry.decisionPublished = false;
        }
        entry.endRun();
        tableStamp++;
        entry.lastSeenMs = sample.tsMs();
        if (entry.spec == null) {
          tasks.remove(entry.task);
        }
      }
    } else {
      if (entry == null) {
        entry = new TaskEntry(sample.task());
        tasks.put(entry.task, entry);
      }
      if (!entry.live || (sample.usageBytes() > entry.maxUsageBytes && rowPeakIsLargestUsage(entry))) {
        tableStamp++; // a new row, or a row's peak of last resort grows
      }
      entry.live = true;
      entry.usageBytes = sample.usageBytes();
      entry.maxUsageBytes = Math.max(entry.maxUsageBytes, sample.usageBytes());
      entry.lastSeenMs = sample.tsMs();
      idleScanDueMs = Math.min(idleScanDueMs, timesOutAtMs(entry));
      evaluate(entry, out);
    }
    settle(out);
    return out;
  }

  /** A task's spec arrived or changed. */
  public List<GateDecision> onSpec(TaskMemorySpec spec, long tsMs) {
    List<GateDecision> out = new ArrayList<>();
    advanceClock(tsMs, out);
    TaskEntry entry = tasks.computeIfAbsent(spec.task(), TaskEntry::new);
    dirty.add(spec.task());
    entry.spec = spec;
    tableStamp++;
    if (entry.live) {
      evaluate(entry, out);
    }
    settle(out);
    return out;
  }

  /** A task's spec was tombstoned: the gate stops judging it, and thaws it if it was waiting. */
  public List<GateDecision> onSpecRemoved(String task, long tsMs) {
    List<GateDecision> out = new ArrayList<>();
    advanceClock(tsMs, out);
    TaskEntry entry = tasks.get(task);
    if (entry != null) {
      dirty.add(task);
      entry.spec = null;
      tableStamp++;
      if (entry.live) {
        evaluate(entry, out);
      } else {
        tasks.remove(task);
      }
    }
    settle(out);
    return out;
  }

  /** New cluster settings or node memory total. Switching to OFF thaws every waiting task. */
  public List<GateDecision> onConfig(PeakGateConfig newConfig, long tsMs) {
    Objects.requireNonNull(newConfig, "config");
    List<GateDecision> out = new ArrayList<>();
    advanceClock(tsMs, out);
    if (newConfig.mode() == GatingMode.OFF && config.mode() != GatingMode.OFF) {
      for (TaskEntry e : queue()) {
        out.add(GateDecision.thaw(node, e.task, streamTimeMs, GateReason.GATING_OFF));
      }
      for (TaskEntry e : tasks.values()) {
        if (e.live) {
          e.role = GateRole.RUNNING;
          dirty.add(e.task);
        }
      }
    }
    config = newConfig;
    idleScanDueMs = Long.MIN_VALUE; // the timeout may have changed
    tableStamp++;
    // More slots or a larger budget may admit waiting tasks now rather than at the next sample.
    settle(out);
    return out;
  }

  /**
   * Stream time moved on without a sample of this node (a punctuator): times out silent tasks, renews leases and
   * admits waiting tasks into slots the timeouts freed.
   */
  public List<GateDecision> advance(long tsMs) {
    List<GateDecision> out = new ArrayList<>();
    advanceClock(tsMs, out);
    settle(out);
    return out;
  }

  /**
   * The enforcer's reflex froze {@code task} at {@code tsMs} (its clock, the node's), reading {@code usageBytes}:
   * the gate adopts the freeze (the task waits in the queue from {@code tsMs}, {@code FREEZE} with a full lease,
   * reason {@code REFLEX_ADOPTED}) or overrules it ({@code THAW}, {@code REFLEX_OVERRULED}) when its own rule would
   * not keep the task frozen: gating OFF, a task it does not gate, an interactive task, a holder, a task below its
   * threshold, or one it admits now (which then holds a slot).
   */
  public List<GateDecision> onReflexFreeze(String task, long tsMs, long usageBytes) {
    List<GateDecision> out = new ArrayList<>();
    advanceClock(tsMs, out);
    TaskEntry e = tasks.get(task);
    if (e == null || !e.live) {
      // Unknown here, or already gone: nothing the gate would keep frozen. The THAW reaches the enforcer, then the
      // tombstone leaves the compacted topic nothing of a task the gate keeps no state for.
      out.add(GateDecision.thaw(node, task, streamTimeMs, GateReason.REFLEX_OVERRULED));
      out.add(GateDecision.forget(node, task, streamTimeMs));
      settle(out);
      return out;
    }
    dirty.add(task);
    tableStamp++;
    if (tsMs >= e.lastSeenMs) {
      // Newer than the last sample: what the task uses now. An older reading would undo a newer observation.
      e.usageBytes = usageBytes;
      e.maxUsageBytes = Math.max(e.maxUsageBytes, usageBytes);
    }
    Long normal = normalBytes(e);
    boolean gated = config.mode() != GatingMode.OFF && normal != null && !e.interactive();
    if (e.role == GateRole.WAITING) {
      // The gate had frozen it too: it keeps its place, or the earlier one of the reflex, and a full lease.
      e.waitingSinceMs = Math.min(e.waitingSinceMs, tsMs);
      e.lastFreezeSentMs = streamTimeMs;
      out.add(GateDecision.freeze(node, task, streamTimeMs, GateReason.REFLEX_ADOPTED, queue().indexOf(e),
          config.freezeLeaseMs()));
    } else if (!gated || e.role == GateRole.HOLDING || e.usageBytes <= config.peakThresholdRatio() * normal) {
      out.add(GateDecision.thaw(node, task, streamTimeMs, GateReason.REFLEX_OVERRULED));
    } else if (admitsNow(e)) {
      e.role = GateRole.HOLDING;
      out.add(GateDecision.thaw(node, task, streamTimeMs, GateReason.REFLEX_OVERRULED));
    } else {
      e.role = GateRole.WAITING;
      e.waitingSinceMs = Math.min(tsMs, streamTimeMs);
      e.lastFreezeSentMs = streamTimeMs;
      out.add(GateDecision.freeze(node, task, streamTimeMs, GateReason.REFLEX_ADOPTED, queue().indexOf(e),
          config.freezeLeaseMs()));
    }
    settle(out);
    return out;
  }

  /**
   * What the enforcer's reflex needs of this gate now: holders, queue, whether a new peak would be admitted, and
   * each live task with a known normal, its threshold, expected peak and whether it would be admitted.
   */
  public GateTable table() {
    List<TaskEntry> queue = queue();
    // Taken once for all rows: the table is computed on every gate call, so no row may loop over the node again.
    int holderCount = 0;
    for (TaskEntry e : tasks.values()) {
      if (e.role == GateRole.HOLDING) {
        holderCount++;
      }
    }
    long committedBytes = config.mode() == GatingMode.BUDGET
        ? PeakSlotAdmission.committedBytes(config, null, tasks.values(), sizes) : 0;
    List<String> holders = new ArrayList<>(holderCount);
    List<GateTable.Row> rows = new ArrayList<>();
    for (TaskEntry e : tasks.values()) {
      if (!e.live) {
        continue;
      }
      if (e.role == GateRole.HOLDING) {
        holders.add(e.task);
      }
      Long threshold = thresholdBytes(e);
      if (threshold == null) {
        continue;
      }
      boolean admitted = switch (e.role) {
        case HOLDING -> true;
        case WAITING -> false;
        case RUNNING -> config.mode() == GatingMode.OFF || e.interactive()
            || (queue.isEmpty() && PeakSlotAdmission.admits(config, e, holderCount, committedBytes, sizes));
      };
      rows.add(new GateTable.Row(e.task, e.role, e.interactive(), threshold, peakBytes(e), admitted));
    }
    Integer freeSlots = null;
    Long bytesLeft = null;
    boolean admitsNewPeak;
    switch (config.mode()) {
      case COUNT -> {
        freeSlots = config.maxConcurrentPeaks() - holders.size();
        admitsNewPeak = queue.isEmpty() && freeSlots > 0;
      }
      case BUDGET -> {
        // The same sum admission compares with the budget, so bytes_left and the rows' admitted agree.
        bytesLeft = config.budgetBytes() - committedBytes;
        admitsNewPeak = queue.isEmpty() && (holders.isEmpty() || bytesLeft > 0);
      }
      default -> admitsNewPeak = true;
    }
    return new GateTable(node, streamTimeMs, config.mode(), holders, queue.stream().map(e -> e.task).toList(),
        admitsNewPeak, freeSlots, bytesLeft, rows);
  }

  /** Taken after every change (the app's gauges): one pass, the queue's head found without sorting the queue. */
  public GateStatus status() {
    int holders = 0;
    int waiting = 0;
    TaskEntry head = null;
    for (TaskEntry e : tasks.values()) {
      if (e.role == GateRole.HOLDING) {
        holders++;
      } else if (e.role == GateRole.WAITING) {
        waiting++;
        if (head == null || QUEUE_ORDER.compare(e, head) < 0) {
          head = e;
        }
      }
    }
    long headWaitMs = head == null ? 0 : streamTimeMs - head.waitingSinceMs;
    return new GateStatus(holders, waiting, headWaitMs, headWaitMs > config.queueWaitAlertMs(), lateSamples);
  }

  /** Waiting tasks, head first. */
  public List<String> queuedTasks() {
    return queue().stream().map(e -> e.task).toList();
  }

  public PeakGateConfig config() {
    return config;
  }

  /** The spec the gate holds for a task: its operation is what the task's usage teaches. */
  public Optional<TaskMemorySpec> spec(String task) {
    TaskEntry entry = tasks.get(task);
    return entry == null ? Optional.empty() : Optional.ofNullable(entry.spec);
  }

  /** The task as the gate holds it now, or empty when it holds no such task. */
  public Optional<TaskGateState> task(String task) {
    TaskEntry entry = tasks.get(task);
    return entry == null ? Optional.empty() : Optional.of(entry.state());
  }

  /** Whether any task runs, holds or waits: only then can stream time alone change anything. */
  public boolean hasLiveTasks() {
    for (TaskEntry e : tasks.values()) {
      if (e.live) {
        return true;
      }
    }
    return false;
  }

  /** No task is known at all, neither running nor by its spec: the gate holds nothing worth keeping. */
  public boolean isEmpty() {
    return tasks.isEmpty();
  }

  /** Samples dropped because they were older than their task's previous sample. */
  public long lateSamples() {
    return lateSamples;
  }

  /** The newest time the gate has seen; {@link Long#MIN_VALUE} before any input. */
  public long streamTimeMs() {
    return streamTimeMs;
  }

  public String node() {
    return node;
  }

  private void advanceClock(long tsMs, List<GateDecision> out) {
    streamTimeMs = Math.max(streamTimeMs, tsMs);
    expireIdle(out);
  }

  /** Tasks silent for task_idle_timeout_ms of stream time lose their slot or queue place and are forgotten. */
  private void expireIdle(List<GateDecision> out) {
    if (streamTimeMs < idleScanDueMs) {
      return;
    }
    long nextDueMs = Long.MAX_VALUE;
    Iterator<TaskEntry> it = tasks.values().iterator();
    while (it.hasNext()) {
      TaskEntry e = it.next();
      if (!e.live) {
        continue;
      }
      long timesOutAtMs = timesOutAtMs(e);
      if (streamTimeMs < timesOutAtMs) {
        nextDueMs = Math.min(nextDueMs, timesOutAtMs);
        continue;
      }
      if (e.role == GateRole.WAITING) {
        out.add(GateDecision.thaw(node, e.task, streamTimeMs, GateReason.IDLE_TIMEOUT));
      }
      e.endRun();
      tableStamp++;
      dirty.add(e.task);
      if (e.spec == null) {
        it.remove();
      }
    }
    idleScanDueMs = nextDueMs;
  }

  /** The stream time at which a live task that sends nothing more times out, saturated at Long.MAX_VALUE. */
  private long timesOutAtMs(TaskEntry e) {
    long timeoutMs = config.taskIdleTimeoutMs();
    return e.lastSeenMs > Long.MAX_VALUE - timeoutMs ? Long.MAX_VALUE : e.lastSeenMs + timeoutMs;
  }

  /** Moves one live task between RUNNING, HOLDING and WAITING after its usage, spec or profile changed. */
  private void evaluate(TaskEntry e, List<GateDecision> out) {
    GateRole roleBefore = e.role;
    long waitingSinceBefore = e.waitingSinceMs;
    judge(e, out);
    if (e.role != roleBefore || e.waitingSinceMs != waitingSinceBefore) {
      tableStamp++;
    }
  }

  private void judge(TaskEntry e, List<GateDecision> out) {
    dirty.add(e.task);
    if (config.mode() == GatingMode.OFF) {
      return;
    }
    Long normal = normalBytes(e);
    if (normal == null) {
      // Without a normal the gate cannot tell a peak from the task's usual size, so it never pauses it.
      if (e.role == GateRole.WAITING) {
        out.add(GateDecision.thaw(node, e.task, streamTimeMs, GateReason.NOT_GATED));
      }
      e.role = GateRole.RUNNING;
      return;
    }
    boolean belowRelease = e.usageBytes <= config.peakReleaseRatio() * normal;
    boolean approaching = e.usageBytes > config.peakThresholdRatio() * normal;
    switch (e.role) {
      case HOLDING:
        if (belowRelease) {
          e.role = GateRole.RUNNING;
        }
        break;
      case WAITING:
        if (e.interactive()) {
          out.add(GateDecision.thaw(node, e.task, streamTimeMs, GateReason.INTERACTIVE));
          e.role = GateRole.HOLDING;
        } else if (belowRelease) {
          // Only possible when the freeze did not take hold (dry run, lag): the peak is over, so is the wait.
          out.add(GateDecision.thaw(node, e.task, streamTimeMs, GateReason.PEAK_PASSED));
          e.role = GateRole.RUNNING;
        }
        break;
      case RUNNING:
        if (!approaching) {
          break;
        }
        if (admitsNow(e)) {
          e.role = GateRole.HOLDING;
        } else {
          e.role = GateRole.WAITING;
          e.waitingSinceMs = streamTimeMs;
          e.lastFreezeSentMs = streamTimeMs;
          GateReason reason =
              config.mode() == GatingMode.BUDGET ? GateReason.PEAK_OVER_BUDGET : GateReason.PEAK_SLOT_BUSY;
          out.add(GateDecision.freeze(
              node, e.task, streamTimeMs, reason, queue().indexOf(e), config.freezeLeaseMs()));
        }
        break;
      default:
        throw new IllegalStateException("unknown role " + e.role);
    }
  }

  /** Whether a running task that approaches its peak now would hold a slot rather than wait. */
  private boolean admitsNow(TaskEntry e) {
    return e.interactive() || (queue().isEmpty() && PeakSlotAdmission.admits(config, e, tasks.values(), sizes));
  }

  /** After any change: thaw queue heads into free slots, strictly in order, then renew leases still waiting. */
  private void settle(List<GateDecision> out) {
    admitAndRenew(out);
    for (GateDecision d : out) {
      TaskEntry e = tasks.get(d.task());
      if (e != null && d.action() != GateAction.FORGET) {
        e.decisionPublished = true;
        dirty.add(e.task);
      }
    }
  }

  private void admitAndRenew(List<GateDecision> out) {
    if (config.mode() == GatingMode.OFF) {
      return;
    }
    List<TaskEntry> queue = queue();
    int admitted = 0;
    for (TaskEntry head : queue) {
      // A head that does not fit blocks those behind it, even smaller ones: that is what rules out starvation.
      if (!PeakSlotAdmission.admits(config, head, tasks.values(), sizes)) {
        break;
      }
      head.role = GateRole.HOLDING;
      tableStamp++;
      dirty.add(head.task);
      out.add(GateDecision.thaw(node, head.task, streamTimeMs, GateReason.SLOT_FREED));
      admitted++;
    }
    List<TaskEntry> waiting = queue.subList(admitted, queue.size());
    for (int position = 0; position < waiting.size(); position++) {
      TaskEntry e = waiting.get(position);
      if (streamTimeMs - e.lastFreezeSentMs >= config.renewAfterMs()) {
        e.lastFreezeSentMs = streamTimeMs;
        dirty.add(e.task);
        out.add(GateDecision.freeze(
            node, e.task, streamTimeMs, GateReason.LEASE_RENEWAL, position, config.freezeLeaseMs()));
      }
    }
  }

  private List<TaskEntry> queue() {
    List<TaskEntry> queue = new ArrayList<>();
    for (TaskEntry e : tasks.values()) {
      if (e.role == GateRole.WAITING) {
        queue.add(e);
      }
    }
    queue.sort(QUEUE_ORDER);
    return queue;
  }

  private Optional<MemoryProfile> profileOf(TaskEntry e) {
    if (e.spec == null) {
      return Optional.empty();
    }
    // Kept per task with the spec it was looked up for: a new spec (another operation) is a new object.
    if (e.profileSpec != e.spec || e.profileVersion != profilesVersion) {
      e.profile = profiles.profile(e.spec.operation());
      e.profileSpec = e.spec;
      e.profileVersion = profilesVersion;
    }
    return e.profile;
  }

  /** The spec's normal, else the operation's learned one; null when neither is known (the task is not gated). */
  private Long normalBytes(TaskEntry e) {
    if (e.spec == null) {
      return null;
    }
    if (e.spec.memoryNormalBytes() != null) {
      return e.spec.memoryNormalBytes();
    }
    return profileOf(e).map(MemoryProfile::normalBytes).orElse(null);
  }

  /** The usage above which a task approaches its peak, as the table gives it; null without a normal. */
  private Long thresholdBytes(TaskEntry e) {
    Long normal = normalBytes(e);
    return normal == null ? null : (long) Math.floor(config.peakThresholdRatio() * normal);
  }

  /** Whether the task has a row in the table whose expected peak is the most it has used so far. */
  private boolean rowPeakIsLargestUsage(TaskEntry e) {
    return e.spec != null && e.spec.memoryPeakBytes() == null && normalBytes(e) != null && profileOf(e).isEmpty();
  }

  /** The spec's peak, else the learned one, else the most this run has used so far. */
  private long peakBytes(TaskEntry e) {
    if (e.spec != null && e.spec.memoryPeakBytes() != null) {
      return e.spec.memoryPeakBytes();
    }
    return profileOf(e).map(MemoryProfile::peakBytes).orElse(e.maxUsageBytes);
  }
}
