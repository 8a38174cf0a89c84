package io.quotaflow.streams.topology;

import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.internal.ConfigBroadcast;
import io.quotaflow.schemas.avro.internal.PoolPartial;
import io.quotaflow.schemas.avro.internal.PoolPartialReport;
import io.quotaflow.schemas.avro.internal.PoolPartialSum;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueIterator;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The node-partitioned stores the CPU processors share, and the one way a task's state changes:
 * {@link #apply} stores the next state, keeps the pool partial sums in step and publishes the
 * decision or tombstone, so no processor can update one without the others.
 */
final class TaskStores {
  static final String CLUSTER_KEY = "cluster";
  static final String POOL_KEY_PREFIX = "pool/";
  /** Learned memory profiles broadcast to this partition, by operation (read by the peak gate). */
  static final String PROFILE_KEY_PREFIX = "profile/";
  /** Pool cap ratios broadcast to this partition, by pool. */
  static final String CAP_KEY_PREFIX = "cap/";
  private static final String LAST_REPORT_KEY = "last";
  /** Pool sums are kept in millionths of a CPU: long additions never drift the way double ones do. */
  private static final double UCPU_PER_CPU = 1_000_000.0;

  private final ProcessorContext<String, Object> context;
  /** Built once: a builder fills in every default by deep copy, and this is read on every sample. */
  private static final ClusterConfig DEFAULTS = defaultCluster();
  private final TopologyProbe probe;
  final KeyValueStore<String, TaskCpuState> tasks;
  final KeyValueStore<String, NodeStatus> nodes;
  final KeyValueStore<String, ConfigBroadcast> configs;
  final KeyValueStore<String, PoolPartial> poolPartials;
  private final KeyValueStore<String, PoolPartialReport> poolReports;

  TaskStores(ProcessorContext<String, Object> context, TopologyProbe probe) {
    this.context = context;
    this.probe = probe;
    this.tasks = context.getStateStore(Names.TASK_STATE_STORE);
    this.nodes = context.getStateStore(Names.NODE_STATUS_STORE);
    this.configs = context.getStateStore(Names.CONFIG_STORE);
    this.poolPartials = context.getStateStore(Names.POOL_PARTIALS_STORE);
    this.poolReports = context.getStateStore(Names.POOL_REPORT_STORE);
  }

  /** The cap ratio last broadcast for {@code pool}; 1 before any. */
  double capRatio(String pool) {
    ConfigBroadcast stored = configs.get(CAP_KEY_PREFIX + pool);
    return stored == null || stored.getPoolCap() == null ? 1.0 : stored.getPoolCap().getCapRatio();
  }

  /**
   * Before an event with record time {@code timestampMs} changes anything: when it opens a new
   * period of stream time, this partition's pool sums as they stand — the end of the last period —
   * go to the pool processor. Reports are made before the event, so they never hold an effect from
   * a later period, whatever other nodes share the partition.
   */
  void beforeEvent(long timestampMs, int partition) {
    PoolPartialReport last = poolReports.get(LAST_REPORT_KEY);
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
    PoolPartialReport report = PoolPartialReport.newBuilder().setPartition(partition).setPeriod(completed)
        .setPeriodMs(periodMs).setNodeCpus(nodeCpus).setPools(sums).build();
    poolReports.put(LAST_REPORT_KEY, report);
    // Stamped with the time of the record that closed the period: the pool processor merges partials and
    // configs in time order, so a config given before that record is in force for the period's update.
    context.forward(new Record<>(Integer.toString(partition), (Object) report, timestampMs), Names.POOL_PARTIALS_SINK);
  }

  /** The cluster config in force: the last valid one broadcast, else the schema defaults. */
  ClusterConfig cluster() {
    return cluster(configs);
  }

  /** The cluster config in force in a partition's config store: the last valid one broadcast, else the schema defaults. */
  static ClusterConfig cluster(KeyValueStore<String, ConfigBroadcast> configs) {
    ConfigBroadcast stored = configs.get(CLUSTER_KEY);
    return stored == null || stored.getClusterConfig() == null ? DEFAULTS : stored.getClusterConfig();
  }

  static ClusterConfig defaultCluster() {
    return ClusterConfig.newBuilder().setCluster("default").build();
  }

  NodeStatus node(String node) {
    return nodes.get(node);
  }

  void apply(String key, TaskCpuState before, CpuDecisionMaker.Outcome outcome, long timestampMs) {
    if (outcome.state() == null) {
      tasks.delete(key);
    } else if (outcome.state() != before) {
      tasks.put(key, outcome.state());
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
    PoolPartial current = poolPartials.get(pool);
    long reported = (current == null ? 0 : current.getReportedSumUcpu()) + reportedUcpu;
    int count = (current == null ? 0 : current.getTasks()) + tasksDelta;
    if (count == 0) {
      poolPartials.delete(pool);
    } else {
      poolPartials.put(pool, PoolPartial.newBuilder().setPool(pool).setReportedSumUcpu(reported).setTasks(count).build());
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
