package io.quotaflow.cli.replay;

import java.util.List;

/**
 * What one {@code quotaflow replay} found, as the JSON beside the HTML report carries it (field
 * names are snake_case there). Times are epoch milliseconds, CPU in cores, memory in bytes. Every
 * "recorded" figure comes from the topics as the live app published them; every "replayed" one from
 * the real topology run offline over the same input, with the {@code --set} overrides if any.
 *
 * @param range what was read and compared
 * @param overrides the {@code --set} arguments the replay ran with; empty: unchanged parameters
 * @param summary the headline counts and totals
 * @param tasks one entry per task seen in the compared range, sorted by key
 * @param nodes one entry per node, sorted
 * @param pools one entry per pool, sorted
 * @param advice the parameter advisor's findings; null unless {@code --advise} was given
 */
public record ReplayReport(
    Range range, List<String> overrides, Summary summary, List<TaskReport> tasks, List<NodeReport> nodes,
    List<PoolReport> pools, Advice advice) {

  /**
   * @param readFromMs the warm-up start: inputs are read from here
   * @param fromMs decisions are compared from here
   * @param toMs to here (exclusive)
   * @param bootstrap the broker read
   * @param topicPrefix the topics' prefix
   * @param partitions the node-partitioned topics' partition count
   * @param nodesFilter the {@code --nodes} given, empty for all
   * @param poolsFilter the {@code --pools} given, empty for all
   * @param inputRecords input records replayed (configs in force at the start included)
   * @param unreadable input records that could not be decoded (the live app sent them to its DLQ)
   * @param readSeconds wall time spent reading the topics
   * @param replaySeconds wall time spent running the topology
   */
  public record Range(long readFromMs, long fromMs, long toMs, String bootstrap, String topicPrefix, int partitions,
      List<String> nodesFilter, List<String> poolsFilter, long inputRecords, long unreadable, double readSeconds,
      double replaySeconds) {}

  /**
   * @param tasks tasks compared
   * @param exactTasks of which exact (whole life within the input read)
   * @param exactTasksMatching exact tasks whose replayed decisions equal the recorded ones bit for bit
   * @param tasksDiffering tasks (exact or not) whose decisions differ
   * @param recordedCpuDecisions cpu-decisions recorded in the compared range
   * @param replayedCpuDecisions cpu-decisions the replay produced in it
   * @param recordedFreezeDecisions freeze-decisions recorded in the compared range
   * @param replayedFreezeDecisions freeze-decisions the replay produced in it
   * @param recordedPoolStates pool-state records recorded in the compared range
   * @param replayedPoolStates pool-state records the replay produced in it
   * @param reclaimedCpuSeconds recorded / replayed CPU-seconds reclaimed, over all tasks
   * @param overLimitSeconds recorded / replayed seconds of usage above the effective limit, over all tasks
   * @param frozenTaskSeconds recorded / replayed task-seconds frozen, over all nodes
   */
  public record Summary(int tasks, int exactTasks, int exactTasksMatching, int tasksDiffering,
      long recordedCpuDecisions, long replayedCpuDecisions, long recordedFreezeDecisions, long replayedFreezeDecisions,
      long recordedPoolStates, long replayedPoolStates, Pair reclaimedCpuSeconds, Pair overLimitSeconds,
      Pair frozenTaskSeconds) {}

  /** A figure as recorded and as replayed. */
  public record Pair(double recorded, double replayed) {
    public double change() {
      return replayed - recorded;
    }
  }

  /**
   * @param exact whether the replay can reproduce the task bit for bit
   * @param reason why it is exact or approximate, in words
   */
  public record Exactness(boolean exact, String reason) {}

  /**
   * How a key's recorded and replayed decision sequences compare.
   *
   * @param recorded records recorded in the compared range
   * @param replayed records the replay produced in it
   * @param identical whether both sequences are equal, value for value (Avro binary encoding)
   * @param firstDifference the first difference in words ("decision 3 at 12:00:05: effective_limit_cpu 0.75 recorded, 0.80 replayed"); null when identical
   * @param differingFields the fields that differ in the first differing record ("time" for its record timestamp;
   *     "record" when one side has a record the other has not); empty when identical
   */
  public record Diff(int recorded, int replayed, boolean identical, String firstDifference, List<String> differingFields) {
    public Diff {
      differingFields = differingFields == null ? List.of() : List.copyOf(differingFields);
    }

    public static Diff identical(int records) {
      return new Diff(records, records, true, null, List.of());
    }
  }

  /** A point of a time series. */
  public record Point(long tMs, double value) {}

  /** A task frozen from {@code fromMs} to {@code toMs} (null: still frozen at the end of the range). */
  public record Interval(String task, long fromMs, Long toMs) {}

  /**
   * @param key node/task
   * @param pool its spec's pool; null without a spec
   * @param exactness exact or approximate, and why
   * @param cpu recorded vs replayed cpu-decisions
   * @param freeze recorded vs replayed freeze-decisions
   * @param reclaimedCpuSeconds CPU-seconds between its hard and its effective limit, summed over the range
   * @param overLimitSeconds seconds its recorded usage was above its effective limit
   * @param usage its recorded CPU usage, cores, one point per sample interval
   * @param hardLimit its hard limit (steps: each point holds until the next)
   * @param recordedSoft recorded soft limit (steps)
   * @param recordedEffective recorded effective limit (steps)
   * @param replayedSoft replayed soft limit (steps)
   * @param replayedEffective replayed effective limit (steps)
   */
  public record TaskReport(String key, String pool, Exactness exactness, Diff cpu, Diff freeze,
      Pair reclaimedCpuSeconds, Pair overLimitSeconds, List<Point> usage, List<Point> hardLimit,
      List<Point> recordedSoft, List<Point> recordedEffective, List<Point> replayedSoft, List<Point> replayedEffective) {}

  /**
   * @param node the node
   * @param peakMemoryBytes peak of the node's summed task memory: as recorded, and as the replay's freezes would
   *     have left it (a task the replay freezes keeps the memory it had when frozen until thawed)
   * @param frozenTaskSeconds task-seconds frozen
   * @param memory the recorded sum of its tasks' memory over time
   * @param recordedFrozen freeze intervals the live app decided
   * @param replayedFrozen freeze intervals the replay decided
   */
  public record NodeReport(String node, Pair peakMemoryBytes, Pair frozenTaskSeconds, List<Point> memory,
      List<Interval> recordedFrozen, List<Interval> replayedFrozen) {}

  /**
   * @param pool the pool
   * @param exactness exact or approximate, and why
   * @param states recorded vs replayed pool-state records
   * @param recordedVolume accumulated_resource_volume_cpu over time, recorded
   * @param replayedVolume the same, replayed
   * @param recordedFairShare fair_share_cpu over time, recorded
   * @param replayedFairShare the same, replayed
   */
  public record PoolReport(String pool, Exactness exactness, Diff states, List<Point> recordedVolume,
      List<Point> replayedVolume, List<Point> recordedFairShare, List<Point> replayedFairShare) {}

  /**
   * The advisor's search ({@code --advise cpu}).
   *
   * @param maxAddedOverLimitSeconds the bound the user gave: over-limit seconds a setting may add to the baseline's
   * @param baseline the replay with the parameters in force
   * @param candidates every setting tried, best first; {@code candidates.get(0)} is the advice when it is within the bound
   */
  public record Advice(double maxAddedOverLimitSeconds, Candidate baseline, List<Candidate> candidates) {}

  /**
   * One setting the advisor replayed.
   *
   * @param sets the {@code --set} arguments that reproduce this replay
   * @param reclaimedCpuSeconds CPU-seconds reclaimed over all tasks
   * @param overLimitSeconds seconds of usage above the effective limit over all tasks
   * @param withinBound whether it adds no more over-limit time than the bound
   */
  public record Candidate(List<String> sets, double reclaimedCpuSeconds, double overLimitSeconds, boolean withinBound) {}
}
