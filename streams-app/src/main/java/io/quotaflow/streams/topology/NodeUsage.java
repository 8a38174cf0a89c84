package io.quotaflow.streams.topology;

import io.quotaflow.streams.engine.memory.TaskUsageStats;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The usage totals of one loaded gate's live tasks, by task id: what their records hold or will ({@link GateStores}).
 *
 * <p>Kept per node, beside the node's gate, rather than in one map of the partition's tasks keyed {@code node/task}:
 * a sample looks its task up among its node's few, by the task id alone, and a save looks at its own node's pending
 * writes instead of filtering every pending key of the partition. The partition-wide lookup, with a new key string
 * per sample, was 6 % of the stream threads' CPU samples at 100,000 tasks in {@code bench cpu}; per node the stream
 * threads spend 2–3 % less per sample there (docs/benchmarks.md), not 6 %: each task's own entry is still out of
 * the CPU cache when its sample comes, once every ~8,000 of the partition's samples.
 */
final class NodeUsage {

  private final Map<String, TaskUsageStats> totals = new HashMap<>();
  /** Tasks whose totals changed since their record was last written (a late sample moves them, not the gate). */
  private final Set<String> toWrite = new HashSet<>();
  /** Tasks whose totals came from the store an older version kept them in: deleted there once their record holds them. */
  private final Set<String> carriedOver = new HashSet<>();

  /** The task's totals, or null when it has none. */
  TaskUsageStats get(String task) {
    return totals.get(task);
  }

  /** Totals as a task record holds them: nothing to write. */
  void load(String task, TaskUsageStats stats) {
    totals.put(task, stats);
  }

  /** Totals read from the older store: to be written into the task's record, then deleted there. */
  void carryOver(String task, TaskUsageStats stats) {
    put(task, stats);
    carriedOver.add(task);
  }

  /** New totals, written with the task's record at the gate's next save. */
  void put(String task, TaskUsageStats stats) {
    totals.put(task, stats);
    toWrite.add(task);
  }

  /** The run ended: its record is written without totals at the gate's next save. */
  void delete(String task) {
    totals.remove(task);
    toWrite.add(task);
  }

  /**
   * What the task's record is written with now: its totals while it is {@code live}; a run that ended takes its
   * totals with it.
   */
  TaskUsageStats written(String task, boolean live) {
    toWrite.remove(task);
    return live ? totals.get(task) : totals.remove(task);
  }

  /** The task is gone from the gate, its record deleted. */
  void forget(String task) {
    totals.remove(task);
    toWrite.remove(task);
  }

  /**
   * Whether the task's totals came from the older store and were not deleted there yet; says so once, so the caller
   * deletes them there.
   */
  boolean takeCarriedOver(String task) {
    return carriedOver.remove(task);
  }

  boolean hasWrites() {
    return !toWrite.isEmpty();
  }

  /** The tasks whose totals wait to be written, as a copy: writing them changes what waits. */
  List<String> writes() {
    return List.copyOf(toWrite);
  }
}
