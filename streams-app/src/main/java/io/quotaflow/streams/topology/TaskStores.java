package io.quotaflow.streams.topology;

import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.JobCpuMonitorConfig;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.ConfigBroadcast;
import io.quotaflow.schemas.avro.internal.PoolPartial;
import io.quotaflow.schemas.avro.internal.PoolPartialReport;
import io.quotaflow.schemas.avro.internal.PoolPartialSum;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The node-partitioned stores of the CPU processor, and the one way a task's state changes:
 * {@link #apply} stores the next state, keeps the pool partial sums in step and publishes the
 * decision or tombstone, so no input can update one without the others.
 *
 * <p>A task's spec is kept apart from its state ({@link Names#TASK_SPEC_STORE}): the state is written on every
 * sample, the spec only when a new one arrives, and it would be a third of every state write (111 of ~315 B with
 * its key, at 1 Hz a third of the task-state changelog). In memory a task's state holds its spec and its ids, so the
 * decisions see one record; {@link #apply} writes the state without them ({@link StoredTaskState}) and the spec when
 * it is another, and {@link #task} joins them again. States written before the spec moved hold it inline and are
 * read with it; the first read of one copies its spec into the spec store, and its next write drops it from the
 * state.
 *
 * <p>The processor is the only writer of these stores (the peak gate reads the node status and config
 * stores), and every write goes through here: so what was read or written of them is kept in memory and
 * read from there, written through to the store at once — of the task states, those of the tasks that
 * come back soonest ({@link #TASK_MEMO_SLOTS} per partition); of the rest, every value (the pool sums as
 * written). Built anew whenever the processor is initialised, it starts from the stores.
 */
final class TaskStores {
  static final String CLUSTER_KEY = "cluster";
  static final String POOL_KEY_PREFIX = "pool/";
  /** Learned memory profiles broadcast to this partition, by operation (read by the peak gate). */
  static final String PROFILE_KEY_PREFIX = "profile/";
  /** Pool cap ratios broadcast to this partition, by pool. */
  static final String CAP_KEY_PREFIX = "cap/";
  private static final String LAST_REPORT_KEY = "last";
  /**
   * Task states held in memory per partition: room for every task of a partition of up to ~8,000. A task sampled at
   * 1 Hz comes back after all the others of its partition (~4,200 of them in docs/scaling.md's cluster, ~8,300 at
   * 100,000 tasks in {@code bench cpu}), so a memo smaller than the partition answers no read at all: with 2,048 slots
   * every sample at 100,000 tasks paid a RocksDB read and a decode (10 % of the stream threads' samples in JFR). Four
   * times the tasks, because tasks that come back in turn miss every time in a set that more than {@link
   * KeyMemo#WAYS} of them share: with 8,300 tasks in 16,384 slots ~15 % of them are in such sets (Poisson, a mean of
   * two per set), in 32,768 ~2 %. A held state costs ~400 B of heap; the slots themselves 384 KiB.
   */
  static final int TASK_MEMO_SLOTS = 32_768;
  /** Pool sums are kept in millionths of a CPU: long additions never drift the way double ones do. */
  private static final double UCPU_PER_CPU = 1_000_000.0;

  private final ProcessorContext<String, Object> context;
  /** Built once: a builder fills in every default by deep copy, and this is read on every sample. */
  private static final ClusterConfig DEFAULTS = defaultCluster();
  private final TopologyProbe probe;
  /**
   * Each task's state without its spec (in states written before the spec moved, with it): its part of the task's
   * record, which the peak gate's part shares.
   */
  private final TaskRecords<TaskCpuState> tasks;
  /** Each spec'd task's spec, by the key of its state. */
  private final KeyValueStore<String, TaskSpec> specs;
  private final KeyValueStore<String, NodeStatus> nodes;
  private final KeyValueStore<String, ConfigBroadcast> configs;
  private final KeyValueStore<String, PoolPartial> poolPartials;
  private final KeyValueStore<String, PoolPartialReport> poolReports;

  private final KeyMemo<TaskCpuState> tasksRead = new KeyMemo<>(TASK_MEMO_SLOTS);
  private final SharedValues<String> strings = new SharedValues<>();
  private final SharedValues<JobCpuMonitorConfig> monitorConfigs = new SharedValues<>();
  /** The cluster config in force, once read; null: not read since it last changed. */
  private ClusterConfig cluster;
  /** Node statuses by node, once read (a null value: none stored). */
  private final Map<String, NodeStatus> nodesRead = new HashMap<>();
  /** Cap ratios by pool, once read. */
  private final Map<String, Double> capsRead = new HashMap<>();
  /** Pool sums by pool as last written; a pool not here is read from the store. */
  private final Map<String, PoolPartial> partialsRead = new HashMap<>();
  /** The last report, once read or written; {@link #reportRead} says whether it was. */
  private PoolPartialReport lastReport;
  private boolean reportRead;

  TaskStores(ProcessorContext<String, Object> context, TopologyProbe probe) {
    this.context = context;
    this.probe = probe;
    this.tasks = TaskRecords.cpu(context.getStateStore(Names.TASK_STORE));
    this.specs = context.getStateStore(Names.TASK_SPEC_STORE);
    this.nodes = context.getStateStore(Names.NODE_STATUS_STORE);
    this.configs = context.getStateStore(Names.CONFIG_STORE);
    this.poolPartials = context.getStateStore(Names.POOL_PARTIALS_STORE);
    this.poolReports = context.getStateStore(Names.POOL_REPORT_STORE);
  }

  /** The cap ratio last broadcast for {@code pool}; 1 before any. */
  double capRatio(String pool) {
    Double known = capsRead.get(pool);
    if (known != null) {
      return known;
    }
    ConfigBroadcast stored = configs.get(CAP_KEY_PREFIX + pool);
    double ratio = stored == null || stored.getPoolCap() == null ? 1.0 : stored.getPoolCap().getCapRatio();
    capsRead.put(pool, ratio);
    return ratio;
  }

  /** Stores a broadcast config under {@code key}, or deletes it when the broadcast carries none (the original was deleted). */
  void keepConfig(String key, ConfigBroadcast config, boolean present) {
    if (present) {
      configs.put(key, config);
    } else {
      configs.delete(key);
    }
    if (key.equals(CLUSTER_KEY)) {
      cluster = null;
    } else if (key.startsWith(CAP_KEY_PREFIX)) {
      capsRead.remove(key.substring(CAP_KEY_PREFIX.length()));
    }
  }

  /**
   * Before an event with record time {@code timestampMs} changes anything: when it opens a new
   * period of stream time, this partition's pool sums as they stand — the end of the last period —
   * go to the pool processor. Reports are made before the event, so they never hold an effect from
   * a later period, whatever other nodes share the partition.
   */
  void beforeEvent(long timestampMs) {
    PoolPartialReport last = lastReport();
    long periodMs = cluster().getFairShareUpdatePeriodMs();
    long completed = Math.floorDiv(timestampMs, periodMs) - 1;
    if (last != null && last.getPeriodMs() == periodMs && completed <= last.getPeriod()) {
      return;
    }
    List<PoolPartialSum> sums = new ArrayList<>();
    try (KeyValueIterator<String, PoolPartial> all = poolPartials.all()) {
      all.forEachRemaining(kv -> sums.add(PoolPartialSum.newBuilder().setPool(kv.value.getPool())
          .setReportedSumUcpu(kv.value.getReportedSumUcpu()).setTasks(kv.value.getTasks()).build()));
    }
    long nodeCpus = 0;
    try (KeyValueIterator<String, NodeStatus> all = nodes.all()) {
      while (all.hasNext()) {
        nodeCpus += Math.max(0, all.next().value.getCpus());
      }
    }
    int partition = context.recordMetadata().map(m -> m.partition()).orElse(0);
    PoolPartialReport report = PoolPartialReport.newBuilder().setPartition(partition).setPeriod(completed)
        .setPeriodMs(periodMs).setNodeCpus(nodeCpus).setPools(sums).build();
    poolReports.put(LAST_REPORT_KEY, report);
    lastReport = report;
    // Stamped with the time of the record that closed the period: the pool processor merges partials and
    // configs in time order, so a config given before that record is in force for the period's update.
    context.forward(new Record<>(Integer.toString(partition), (Object) report, timestampMs), Names.POOL_PARTIALS_SINK);
  }

  private PoolPartialReport lastReport() {
    if (!reportRead) {
      lastReport = poolReports.get(LAST_REPORT_KEY);
      reportRead = true;
    }
    return lastReport;
  }

  /** The cluster config in force: the last valid one broadcast, else the schema defaults. */
  ClusterConfig cluster() {
    if (cluster == null) {
      cluster = cluster(configs);
    }
    return cluster;
  }

  /** The cluster config in force in a partition's config store: the last valid one broadcast, else the schema defaults. */
  static ClusterConfig cluster(KeyValueStore<String, ConfigBroadcast> configs) {
    ConfigBroadcast stored = configs.get(CLUSTER_KEY);
    return stored == null || stored.getClusterConfig() == null ? DEFAULTS : stored.getClusterConfig();
  }

  static ClusterConfig defaultCluster() {
    return ClusterConfig.newBuilder().setCluster("default").build();
  }

  /** The node's status, or null when none is stored. */
  NodeStatus node(String node) {
    NodeStatus known = nodesRead.get(node);
    if (known == null && !nodesRead.containsKey(node)) {
      known = nodes.get(node);
      nodesRead.put(node, known);
    }
    return known;
  }

  /** Stores the node's status, or deletes it when {@code status} is null (a tombstone). */
  void keepNode(String node, NodeStatus status) {
    if (status == null) {
      nodes.delete(node);
      nodesRead.remove(node); // the node may not come back: no entry kept for it
    } else {
      nodes.put(node, status);
      nodesRead.put(node, status);
    }
  }

  /** The task's state with its spec, or null when none is stored. */
  TaskCpuState task(String key) {
    TaskCpuState known = tasksRead.get(key);
    if (known == null) {
      TaskCpuState stored = tasks.get(key);
      if (stored != null) {
        known = remember(key, stored);
      }
    }
    return known;
  }

  /** {@code stored}, the state read from the store for {@code key}, with its spec and shared values, kept in the memo. */
  private TaskCpuState remember(String key, TaskCpuState stored) {
    TaskCpuState known = withSpec(key, stored);
    shareValues(known);
    tasksRead.put(key, known);
    return known;
  }

  /**
   * The tasks whose stored state passes {@code wanted}, each with its spec as {@link #task} reads it, in key order;
   * {@code wanted} sees the state as stored, without its spec and ids. Collected before the caller changes any of
   * them.
   */
  List<KeyValue<String, TaskCpuState>> tasks(Predicate<TaskCpuState> wanted) {
    List<KeyValue<String, TaskCpuState>> out = new ArrayList<>();
    tasks.forEach((key, stored) -> collect(key, stored, wanted, out));
    return out;
  }

  /** The node's tasks, each with its spec as {@link #task} reads it, in key order. */
  List<KeyValue<String, TaskCpuState>> tasksOf(String node) {
    List<KeyValue<String, TaskCpuState>> out = new ArrayList<>();
    tasks.forEachOf(node, (key, stored) -> collect(key, stored, state -> true, out));
    return out;
  }

  private void collect(String key, TaskCpuState stored, Predicate<TaskCpuState> wanted,
      List<KeyValue<String, TaskCpuState>> out) {
    if (wanted.test(stored)) {
      TaskCpuState known = tasksRead.get(key); // the memo's is the one the next write replaces
      out.add(KeyValue.pair(key, known != null ? known : remember(key, stored)));
    }
  }

  /**
   * {@code stored} as the processor keeps it ({@link StoredTaskState#read}): with its key's ids and its spec, the one
   * it holds (written before the spec moved, whose spec is then copied into the spec store, so the state's next write
   * may leave it out) or the spec store's.
   */
  private TaskCpuState withSpec(String key, TaskCpuState stored) {
    if (stored.getSpec() != null) {
      if (specs.get(key) == null) {
        specs.put(key, stored.getSpec());
      }
      return StoredTaskState.read(key, stored, null);
    }
    TaskSpec spec = specs.get(key);
    return StoredTaskState.read(key, stored, spec == null ? null : shared(spec));
  }

  /**
   * Points the fields of a state read from the store that many tasks have in common at one instance each (its
   * node, its spec's as {@link #shared(TaskSpec)} does, its decision's reason), its spec's task id at its own. Each
   * field keeps its value, so a decision shared with a state that waits for the commit is the same after it. A
   * decoded state held ten strings of its own, ~500 B of the ~1 KiB it kept on the heap while memoised or waiting
   * for the commit; its successors share them ({@link CpuDecisionMaker} copies states field by field).
   */
  private void shareValues(TaskCpuState state) {
    state.setNode(strings.of(state.getNode()));
    TaskSpec spec = state.getSpec();
    if (spec != null) {
      shared(spec); // its node then is the state's
      spec.setTask(sameOr(state.getTask(), spec.getTask()));
    }
    CpuDecision decision = state.getLastDecision();
    if (decision != null) {
      decision.setReason(strings.of(decision.getReason()));
    }
  }

  /**
   * {@code spec}, its node, operation and pool pointed at {@link #strings}' instances and its monitor settings (88 B)
   * at {@link #monitorConfigs}': for a spec as it arrives, which the task's states then hold for as long as it is in
   * force (in the memo, every task of a partition of up to ~8,000), and for one decoded with a stored state. Only
   * which instance each field is changes, never its value, so the peak gate, which gets the same arriving record
   * after this processor, reads what it would have.
   */
  TaskSpec shared(TaskSpec spec) {
    spec.setNode(strings.of(spec.getNode()));
    spec.setOperation(strings.of(spec.getOperation()));
    spec.setPool(strings.of(spec.getPool()));
    spec.setJobCpuMonitor(monitorConfigs.of(spec.getJobCpuMonitor()));
    return spec;
  }

  /** {@code held} when {@code value} equals it, else {@code value}. */
  private static String sameOr(String held, String value) {
    return held.equals(value) ? held : value;
  }

  void apply(String key, TaskCpuState before, CpuDecisionMaker.Outcome outcome, long timestampMs) {
    TaskCpuState after = outcome.state();
    TaskSpec specBefore = before == null ? null : before.getSpec();
    if (after == null) {
      tasks.delete(key);
      tasksRead.remove(key);
      if (specBefore != null) {
        specs.delete(key);
      }
    } else if (after != before) {
      TaskSpec spec = after.getSpec();
      if (spec != specBefore) { // a spec is never changed in place: another one is another instance
        if (spec == null) {
          specs.delete(key);
        } else {
          specs.put(key, spec);
        }
      }
      // Its stored form is built at the commit: no copy per sample waits for it (WriteBackStore.Deferred).
      tasks.putDeferred(key, () -> StoredTaskState.stored(after));
      tasksRead.put(key, after);
    }
    updatePoolPartials(before, outcome.state());
    if (outcome.tombstone()) {
      context.forward(new Record<>(key, null, timestampMs), Names.CPU_DECISIONS_SINK);
      probe.decisionPublished(true);
    }
    if (outcome.decision() != null) {
      context.forward(new Record<>(key, (Object) outcome.decision(), timestampMs), Names.CPU_DECISIONS_SINK);
      probe.decisionPublished(false);
    }
  }

  private void updatePoolPartials(TaskCpuState before, TaskCpuState after) {
    Contribution was = Contribution.of(before);
    Contribution now = Contribution.of(after);
    if (was.equals(now)) {
      return;
    }
    if (was.pool() != null) {
      addTo(was.pool(), -was.reportedUcpu(), -1);
    }
    if (now.pool() != null) {
      addTo(now.pool(), now.reportedUcpu(), 1);
    }
  }

  private void addTo(String pool, long reportedUcpu, int tasksDelta) {
    PoolPartial current = partialsRead.get(pool);
    if (current == null) {
      current = poolPartials.get(pool);
    }
    long reported = (current == null ? 0 : current.getReportedSumUcpu()) + reportedUcpu;
    int count = (current == null ? 0 : current.getTasks()) + tasksDelta;
    if (count == 0) {
      poolPartials.delete(pool);
      partialsRead.remove(pool); // the pool may not come back: no entry kept for it
    } else {
      PoolPartial next = PoolPartial.newBuilder().setPool(pool).setReportedSumUcpu(reported).setTasks(count).build();
      poolPartials.put(pool, next);
      partialsRead.put(pool, next);
    }
  }

  /** What a task counts in its pool: a task with a spec and a published decision is live, with its reported limit. */
  private record Contribution(String pool, long reportedUcpu) {
    static final Contribution NONE = new Contribution(null, 0);

    static Contribution of(TaskCpuState state) {
      if (state == null || state.getSpec() == null || state.getLastDecision() == null) {
        return NONE;
      }
      return new Contribution(state.getSpec().getPool(),
          Math.round(CpuDecisionMaker.reportedLimit(state) * UCPU_PER_CPU));
    }
  }
}
