package io.quotaflow.streams.topology;

import io.quotaflow.schemas.Ids;
import io.quotaflow.schemas.NodePartitioning;
import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.streams.engine.pools.PoolSpecValidation;
import io.quotaflow.schemas.avro.TaskSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The checks a record passes before it may change state: ids, the key matching the value, finite
 * non-negative numbers, the node's partition, bounded clock skew. Each returns what is wrong, so the
 * DLQ record says it; an empty list means the record is fine. The operator tools run the same
 * checks before they publish anything.
 */
public final class RecordChecks {

  static final Duration MAX_CLOCK_SKEW = Duration.ofMinutes(5);

  private RecordChecks() {}

  static TaskKey taskKey(String key) {
    try {
      return TaskKey.parse(key);
    } catch (IllegalArgumentException e) {
      throw new RejectedRecordException(e.getMessage(), e);
    }
  }

  static void requireMatchingKey(TaskKey key, String node, String task) {
    if (!key.node().equals(node) || !key.task().equals(task)) {
      throw new RejectedRecordException("key " + key + " does not match the value's node/task " + node + "/" + task);
    }
  }

  /** A record of {@code node} must be in the partition the node maps to, or its task would be split across stream tasks. */
  static void requirePartition(String node, int partition, int partitions) {
    int expected = NodePartitioning.partitionOfNode(node, partitions);
    if (partition != expected) {
      throw new RejectedRecordException("record of node " + node + " is in partition " + partition + " but node "
          + node + " maps to partition " + expected + " of " + partitions + ": its producer does not use the node partitioner");
    }
  }

  static void requireNoProblems(String what, List<String> problems) {
    if (!problems.isEmpty()) {
      throw new RejectedRecordException("invalid " + what + ": " + String.join("; ", problems));
    }
  }

  /** Everything a sample must pass before any processor sees it ({@link InputCheck}). */
  static void requireValidSample(String key, CgroupSample sample, long timestampMs, Integer partition, int partitions) {
    TaskKey task = taskKey(key);
    if (sample == null) {
      throw new RejectedRecordException("samples carry no tombstones: null value for " + task);
    }
    requireMatchingKey(task, sample.getNode(), sample.getTask());
    requirePartitionWhenKnown(task.node(), partition, partitions);
    requireNoProblems("sample", sampleProblems(sample, timestampMs));
  }

  /** Everything a task spec (or its tombstone) must pass before any processor sees it. */
  static void requireValidSpec(String key, TaskSpec spec, long timestampMs, Integer partition, int partitions) {
    TaskKey task = taskKey(key);
    requirePartitionWhenKnown(task.node(), partition, partitions);
    if (spec != null) {
      requireMatchingKey(task, spec.getNode(), spec.getTask());
      requireNoProblems("task spec", specProblems(spec));
    }
  }

  /** Everything a node status (or its tombstone) must pass before any processor sees it. */
  static void requireValidNodeStatus(String node, NodeStatus status, long timestampMs, Integer partition, int partitions) {
    if (!Ids.isValid(node)) {
      throw new RejectedRecordException("invalid node key '" + node + "': ids match " + Ids.PATTERN_TEXT);
    }
    requirePartitionWhenKnown(node, partition, partitions);
    if (status != null) {
      if (!status.getNode().equals(node)) {
        throw new RejectedRecordException("key '" + node + "' does not match the value's node '" + status.getNode() + "'");
      }
      requireNoProblems("node status", nodeProblems(status));
    }
  }

  /**
   * The results the peak gate reads: the reflex's freezes. Any other (or a null: a result the source
   * left undecoded, {@link ReflexFreezeDeserializer}) is dropped before the checks.
   */
  static boolean isReflexFreeze(EnforcementResult result) {
    return result != null && result.getKind() == EnforcementKind.FREEZE
        && result.getStatus() == EnforcementStatus.REFLEX_FROZEN;
  }

  /** Everything a reflex freeze must pass before the gate sees it: it moves the node's gate like a sample. */
  static void requireValidReflexFreeze(String key, EnforcementResult result, long timestampMs, Integer partition,
      int partitions) {
    TaskKey task = taskKey(key);
    requireMatchingKey(task, result.getNode(), result.getTask());
    requirePartitionWhenKnown(task.node(), partition, partitions);
    requireNoProblems("reflex freeze", reflexFreezeProblems(result, timestampMs));
  }

  static List<String> reflexFreezeProblems(EnforcementResult r, long recordTimestampMs) {
    List<String> problems = new ArrayList<>();
    atLeastZero(problems, "ts_ms", r.getTsMs());
    atLeastZero(problems, "read_memory_bytes", r.getReadMemoryBytes());
    // ts_ms moves the node's gate on: one far from the record's own time would time its tasks out.
    long skewMs = Math.abs(r.getTsMs() - recordTimestampMs);
    if (skewMs > MAX_CLOCK_SKEW.toMillis()) {
      problems.add("clock skew: ts_ms " + r.getTsMs() + " is " + skewMs + " ms from the record timestamp "
          + recordTimestampMs + " (at most " + MAX_CLOCK_SKEW.toMillis() + " ms)");
    }
    return problems;
  }

  private static void requirePartitionWhenKnown(String node, Integer partition, int partitions) {
    if (partition != null) {
      requirePartition(node, partition, partitions);
    }
  }

  public static List<String> sampleProblems(CgroupSample s, long brokerTimestampMs) {
    List<String> problems = new ArrayList<>();
    atLeastZero(problems, "ts_ms", s.getTsMs());
    atLeastZero(problems, "cpu_usage_usec", s.getCpuUsageUsec());
    atLeastZero(problems, "memory_bytes", s.getMemoryBytes());
    atLeastZero(problems, "memory_anon_bytes", s.getMemoryAnonBytes());
    atLeastZero(problems, "memory_peak_bytes", s.getMemoryPeakBytes());
    atLeastZero(problems, "nr_throttled", s.getNrThrottled());
    atLeastZero(problems, "throttled_usec", s.getThrottledUsec());
    atLeastZero(problems, "seq", s.getSeq());
    if (s.getCpuQuotaCores() != null && !(s.getCpuQuotaCores() > 0 && Double.isFinite(s.getCpuQuotaCores()))) {
      problems.add("cpu_quota_cores must be null or a positive finite number, was " + s.getCpuQuotaCores());
    }
    long skewMs = Math.abs(s.getTsMs() - brokerTimestampMs);
    if (skewMs > MAX_CLOCK_SKEW.toMillis()) {
      problems.add("clock skew: ts_ms " + s.getTsMs() + " is " + skewMs + " ms from the broker timestamp "
          + brokerTimestampMs + " (at most " + MAX_CLOCK_SKEW.toMillis() + " ms)");
    }
    return problems;
  }

  public static List<String> specProblems(TaskSpec spec) {
    List<String> problems = specFieldProblems(spec);
    if (spec.getMemoryNormalBytes() != null && spec.getMemoryPeakBytes() != null
        && spec.getMemoryPeakBytes() < spec.getMemoryNormalBytes()) {
      problems.add("memory_peak_bytes " + spec.getMemoryPeakBytes() + " is below memory_normal_bytes " + spec.getMemoryNormalBytes());
    }
    return problems;
  }

  /**
   * The problems of each field on its own, without the rules between fields: what {@code quotaflow
   * spec set} can check before it has read the task's current spec (which the relations depend on).
   */
  public static List<String> specFieldProblems(TaskSpec spec) {
    List<String> problems = new ArrayList<>();
    if (!Ids.isValid(spec.getPool())) {
      problems.add("pool id '" + spec.getPool() + "' does not match " + Ids.PATTERN_TEXT);
    }
    // Empty: no operation (nothing is learned). Otherwise it keys learned profiles, so it is an id.
    if (!spec.getOperation().isEmpty() && !Ids.isValid(spec.getOperation())) {
      problems.add("operation '" + spec.getOperation() + "' does not match " + Ids.PATTERN_TEXT + " (or is empty)");
    }
    nonNegativeFinite(problems, "ncpus", spec.getNcpus());
    if (spec.getCpuLimit() != null) {
      nonNegativeFinite(problems, "cpu_limit", spec.getCpuLimit());
    }
    // A normal of 0 would make every byte a peak: absent (null) is how a spec leaves it to the learned profile.
    positiveWhenPresent(problems, "memory_normal_bytes", spec.getMemoryNormalBytes());
    positiveWhenPresent(problems, "memory_peak_bytes", spec.getMemoryPeakBytes());
    try {
      CpuDecisionMaker.monitorSettings(spec);
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
    }
    return problems;
  }

  public static List<String> nodeProblems(NodeStatus node) {
    List<String> problems = new ArrayList<>();
    atLeastZero(problems, "memory_total_bytes", node.getMemoryTotalBytes());
    if (node.getCpus() < 1) {
      problems.add("cpus must be at least 1, was " + node.getCpus());
    }
    if (node.getThreadsPerCore() < 1) {
      problems.add("threads_per_core must be at least 1, was " + node.getThreadsPerCore());
    }
    if (node.getCgroupVersion() != 1 && node.getCgroupVersion() != 2) {
      problems.add("cgroup_version must be 1 or 2, was " + node.getCgroupVersion());
    }
    return problems;
  }

  /**
   * What is wrong with a pool config under {@code key}: the key must name the pool, and the pool must
   * pass the engine's own validation ({@link PoolSpecValidation}), so nothing the streams app or
   * {@code quotaflow pool set} lets through can fail inside the engine.
   */
  public static List<String> poolProblems(String key, PoolConfig pool) {
    List<String> problems = new ArrayList<>();
    if (!pool.getPool().equals(key)) {
      problems.add("key '" + key + "' does not match pool '" + pool.getPool() + "'");
    }
    problems.addAll(PoolSpecValidation.errors(PoolRecords.spec(pool)));
    return problems;
  }

  /** {@link #poolProblems} without the key and without the rules between fields ({@link PoolSpecValidation#fieldErrors}). */
  public static List<String> poolFieldProblems(PoolConfig pool) {
    return PoolSpecValidation.fieldErrors(PoolRecords.spec(pool));
  }

  private static void positiveWhenPresent(List<String> problems, String field, Long value) {
    if (value != null && value <= 0) {
      problems.add(field + " must be positive when given (leave it out to use the learned profile), was " + value);
    }
  }

  private static void atLeastZero(List<String> problems, String field, Long value) {
    if (value != null && value < 0) {
      problems.add(field + " must not be negative, was " + value);
    }
  }

  private static void nonNegativeFinite(List<String> problems, String field, double value) {
    if (!(value >= 0 && Double.isFinite(value))) {
      problems.add(field + " must be a finite number >= 0, was " + value);
    }
  }
}
