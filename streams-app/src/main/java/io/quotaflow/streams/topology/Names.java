package io.quotaflow.streams.topology;

/**
 * Every source, processor, store and sink of the topology. Names are part of a deployment:
 * changelog topics are named after stores, so a name never changes once released.
 */
final class Names {
  static final String CLUSTER_CONFIG_SOURCE = "cluster-config-source";
  static final String POOL_CONFIGS_SOURCE = "pool-configs-source";
  static final String CLUSTER_CONFIG_BROADCASTER = "cluster-config-broadcaster";
  static final String POOL_CONFIG_BROADCASTER = "pool-config-broadcaster";
  static final String CONFIG_BROADCAST_SINK = "config-broadcast-sink";
  static final String CONFIG_BROADCAST_SOURCE = "config-broadcast-source";
  static final String TASK_SPECS_SOURCE = "task-specs-source";
  static final String TASK_SPECS_CHECK = "task-specs-check";
  static final String NODES_CHECK = "nodes-check";
  static final String SAMPLES_CHECK = "samples-check";
  static final String NODES_SOURCE = "nodes-source";
  static final String SAMPLES_SOURCE = "samples-source";
  static final String CPU_PROCESSOR = "cpu-processor";
  static final String CPU_DECISIONS_SINK = "cpu-decisions-sink";
  static final String PEAK_GATE = "peak-gate";
  static final String FREEZE_DECISIONS_SINK = "freeze-decisions-sink";
  static final String MEMORY_USAGE_SINK = "memory-usage-sink";
  static final String GATE_TABLES_SINK = "gate-tables-sink";
  static final String ENFORCEMENT_RESULTS_SOURCE = "enforcement-results-source";
  static final String ENFORCEMENT_RESULTS_CHECK = "enforcement-results-check";
  static final String MEMORY_USAGE_SOURCE = "memory-usage-source";
  static final String PROFILE_LEARNER = "profile-learner";
  static final String PROFILE_BROADCAST_SINK = "profile-broadcast-sink";
  static final String POOL_PARTIALS_SINK = "pool-partials-sink";
  static final String POOL_PARTIALS_SOURCE = "pool-partials-source";
  static final String POOL_UPDATER = "pool-updater";
  static final String POOL_STATE_SINK = "pool-state-sink";
  static final String POOL_CAP_BROADCAST_SINK = "pool-cap-broadcast-sink";

  /**
   * Each task's CPU state and gate record in one record (TaskRecord): a sample changes both, and writes one record
   * (TaskRecords).
   */
  static final String TASK_STORE = "task-state";
  /** Each task's CPU state until 2026-11-29 (now in TASK_STORE): read once at start to move what an older version left. */
  static final String LEGACY_TASK_CPU_STORE = "cpu-task-state";
  /** Each task's spec, apart from its state: written when a spec arrives, not on every sample (TaskStores). */
  static final String TASK_SPEC_STORE = "cpu-task-spec";
  static final String NODE_STATUS_STORE = "node-status";
  static final String CONFIG_STORE = "config-state";
  static final String POOL_PARTIALS_STORE = "pool-partials";
  static final String PEAK_GATE_STORE = "peak-gate-state";
  /** Each task's gate record until 2026-11-29 (now in TASK_STORE): read once at start, as LEGACY_TASK_CPU_STORE. */
  static final String LEGACY_GATE_TASKS_STORE = "peak-gate-tasks";
  static final String MEMORY_USAGE_STATS_STORE = "memory-usage-stats";
  /** Each node's gate table as last published on gate-tables: what the next one is compared with. */
  static final String GATE_TABLE_STORE = "peak-gate-published-table";
  static final String MEMORY_PROFILES_STORE = "memory-profiles";
  static final String POOL_REPORT_STORE = "pool-report-state";
  static final String POOL_CONFIG_STORE = "pool-config-state";
  static final String POOL_BARRIER_STORE = "pool-barrier";
  static final String POOL_VOLUMES_STORE = "pool-volumes";
  /** Each pool's newest PoolState, as published on pool-state: what the live-state API answers for pools. */
  static final String POOL_STATE_LATEST_STORE = "pool-state-latest";

  private Names() {}
}
