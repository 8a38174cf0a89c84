package io.quotaflow.streams.topology;

import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.ConfigBroadcast;
import io.quotaflow.schemas.avro.internal.PoolPartial;
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
  /** Pool sums are kept in millionths of a CPU: long additions never drift the way double ones do. */
  private static final double UCPU_PER_CPU = 1_000_000.0;

  private final ProcessorContext<String, CpuDecision> context;
  /** Built once: a builder fills in every default by deep copy, and this is read on every sample. */
  private static final ClusterConfig DEFAULTS = defaultCluster();
  private final TopologyProbe probe;
  final KeyValueStore<String, TaskCpuState> tasks;
  final KeyValueStore<String, NodeStatus> nodes;
  final KeyValueStore<String, ConfigBroadcast> configs;
  final KeyValueStore<String, PoolPartial> poolPartials;

  TaskStores(ProcessorContext<String, CpuDecision> context, TopologyProbe probe) {
    this.context = context;
    this.probe = probe;
    this.tasks = context.getStateStore(Names.TASK_STATE_STORE);
    this.nodes = context.getStateStore(Names.NODE_STATUS_STORE);
    this.configs = context.getStateStore(Names.CONFIG_STORE);
    this.poolPartials = context.getStateStore(Names.POOL_PARTIALS_STORE);
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
      context.forward(new Record<>(key, null, timestampMs));
      probe.decisionPublished(true);
    }
    if (outcome.decision() != null) {
      context.forward(new Record<>(key, outcome.decision(), timestampMs));
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
      addTo(was.pool(), -was.softUcpu(), -was.hardUcpu(), -1);
    }
    if (now.pool() != null) {
      addTo(now.pool(), now.softUcpu(), now.hardUcpu(), 1);
    }
  }

  private void addTo(String pool, long softUcpu, long hardUcpu, int tasksDelta) {
    PoolPartial current = poolPartials.get(pool);
    long soft = (current == null ? 0 : current.getSoftSumUcpu()) + softUcpu;
    long hard = (current == null ? 0 : current.getHardSumUcpu()) + hardUcpu;
    int count = (current == null ? 0 : current.getTasks()) + tasksDelta;
    if (count == 0) {
      poolPartials.delete(pool);
    } else {
      poolPartials.put(pool, PoolPartial.newBuilder().setPool(pool).setSoftSumUcpu(soft).setHardSumUcpu(hard).setTasks(count).build());
    }
  }

  /** What a task counts in its pool: a task with a spec and a published decision is live. */
  private record Contribution(String pool, long softUcpu, long hardUcpu) {
    static final Contribution NONE = new Contribution(null, 0, 0);

    static Contribution of(TaskCpuState state) {
      if (state == null || state.getSpec() == null || state.getLastDecision() == null) {
        return NONE;
      }
      TaskSpec spec = state.getSpec();
      CpuDecision decision = state.getLastDecision();
      return new Contribution(spec.getPool(), Math.round(decision.getSoftLimitCpu() * UCPU_PER_CPU),
          Math.round(decision.getHardLimitCpu() * UCPU_PER_CPU));
    }
  }
}
