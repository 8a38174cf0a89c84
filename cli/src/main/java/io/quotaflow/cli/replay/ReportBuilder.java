package io.quotaflow.cli.replay;

import io.quotaflow.cli.replay.ReplayReport.Advice;
import io.quotaflow.cli.replay.ReplayReport.Diff;
import io.quotaflow.cli.replay.ReplayReport.Exactness;
import io.quotaflow.cli.replay.ReplayReport.Interval;
import io.quotaflow.cli.replay.ReplayReport.NodeReport;
import io.quotaflow.cli.replay.ReplayReport.Pair;
import io.quotaflow.cli.replay.ReplayReport.Point;
import io.quotaflow.cli.replay.ReplayReport.PoolReport;
import io.quotaflow.cli.replay.ReplayReport.TaskReport;
import io.quotaflow.cli.replay.ReplayRun.Replayed;
import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.PoolState;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * Turns a recording and a replay of it into the report: per task, node and pool, the diff of the
 * decisions in the compared range, whether the task could be replayed exactly and why not, and the
 * figures a what-if changes. Pure: the same inputs give the same report.
 */
public final class ReportBuilder {

  private ReportBuilder() {}

  /** Where the figures came from, for the report's header. */
  public record Context(String bootstrap, String topicPrefix, List<String> nodesFilter, List<String> poolsFilter,
      double readSeconds, double replaySeconds) {}

  /** What the recording says of each task and node, read once and shared by every replay of it (the advisor's too). */
  public static final class Inputs {
    final Map<String, TaskSpec> specs = new TreeMap<>();
    /** Samples in the compared range, per task, in time order. */
    final Map<String, List<Timed<CgroupSample>>> samples = new TreeMap<>();
    final long fromMs;
    final long endMs;

    /** When each pool's config, and the cluster's, was first published within the read (configs in force at its start aside). */
    final Map<String, Long> poolConfigChanges = new TreeMap<>();
    Long clusterConfigChange;

    /** @param readFromMs the warm-up start: configs stamped with it are the ones in force there, not changes */
    public Inputs(List<InputRecord> merged, long readFromMs, long fromMs, long toMs) {
      this.fromMs = fromMs;
      long last = fromMs;
      for (InputRecord r : merged) {
        if (r.kind() == InputRecord.Kind.POOL && r.timestampMs() > readFromMs) {
          poolConfigChanges.putIfAbsent(r.key(), r.timestampMs());
        } else if (r.kind() == InputRecord.Kind.CLUSTER && r.timestampMs() > readFromMs && clusterConfigChange == null) {
          clusterConfigChange = r.timestampMs();
        }
        if (r.kind() == InputRecord.Kind.TASK && r.value() != null) {
          specs.put(r.key(), (TaskSpec) r.value());
        } else if (r.kind() == InputRecord.Kind.SAMPLE && r.timestampMs() >= fromMs && r.value() != null) {
          samples.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(new Timed<>(r.key(), r.timestampMs(), (CgroupSample) r.value()));
          last = Math.max(last, r.timestampMs());
        }
      }
      // An interval still open at the end counts to the last input, not to a --to far in the future.
      this.endMs = Math.min(toMs, last);
    }

    /** Whether the compared range holds no sample at all. */
    public boolean isEmpty() {
      return samples.isEmpty();
    }

    String poolOf(String task) {
      TaskSpec spec = specs.get(task);
      return spec == null ? null : spec.getPool();
    }
  }

  public static ReplayReport build(Recording recording, Inputs inputs, Replayed replayed, Overrides overrides, Context context,
      Advice advice) {
    long fromMs = recording.fromMs();
    Map<String, List<Timed<CpuDecision>>> recordedCpu = ReplayRun.byKey(recording.cpu());
    Map<String, List<Timed<CpuDecision>>> replayedCpu = ReplayRun.byKey(replayed.cpu());
    Map<String, List<Timed<FreezeDecision>>> recordedFreeze = ReplayRun.byKey(recording.freeze());
    Map<String, List<Timed<FreezeDecision>>> replayedFreeze = ReplayRun.byKey(replayed.freeze());
    Set<String> poolsFilter = new TreeSet<>(context.poolsFilter());

    Set<String> keys = new TreeSet<>(inputs.samples.keySet());
    keys.addAll(inRange(recording.cpu(), fromMs).stream().map(Timed::key).toList());
    keys.addAll(inRange(replayed.cpu(), fromMs).stream().map(Timed::key).toList());
    List<TaskReport> tasks = new ArrayList<>();
    for (String key : keys) {
      String pool = inputs.poolOf(key);
      if (!poolsFilter.isEmpty() && (pool == null || !poolsFilter.contains(pool))) {
        continue;
      }
      List<Timed<CpuDecision>> rc = recordedCpu.getOrDefault(key, List.of());
      List<Timed<CpuDecision>> pc = replayedCpu.getOrDefault(key, List.of());
      List<Timed<CgroupSample>> samples = inputs.samples.getOrDefault(key, List.of());
      Diff cpu = DecisionDiff.compare(inRange(rc, fromMs), inRange(pc, fromMs));
      Diff freeze = DecisionDiff.compare(inRange(recordedFreeze.getOrDefault(key, List.of()), fromMs),
          inRange(replayedFreeze.getOrDefault(key, List.of()), fromMs));
      tasks.add(new TaskReport(key, pool, taskExactness(key, recording, inputs, replayed),
          cpu, freeze,
          new Pair(reclaimedCpuSeconds(samples, rc, inputs.endMs), reclaimedCpuSeconds(samples, pc, inputs.endMs)),
          new Pair(overLimitSeconds(samples, rc), overLimitSeconds(samples, pc)),
          usage(samples), steps(rc, fromMs, d -> d.getHardLimitCpu()),
          steps(rc, fromMs, d -> d.getSoftLimitCpu()), steps(rc, fromMs, d -> d.getEffectiveLimitCpu()),
          steps(pc, fromMs, d -> d.getSoftLimitCpu()), steps(pc, fromMs, d -> d.getEffectiveLimitCpu())));
    }

    List<NodeReport> nodes = nodes(inputs, keys, recordedFreeze, replayedFreeze, fromMs);
    List<PoolReport> pools = pools(recording, inputs, replayed, context, poolsFilter);

    int exact = (int) tasks.stream().filter(t -> t.exactness().exact()).count();
    int exactMatching = (int) tasks.stream().filter(t -> t.exactness().exact() && t.cpu().identical() && t.freeze().identical()).count();
    int differing = (int) tasks.stream().filter(t -> !t.cpu().identical() || !t.freeze().identical()).count();
    ReplayReport.Summary summary = new ReplayReport.Summary(tasks.size(), exact, exactMatching, differing,
        tasks.stream().mapToLong(t -> t.cpu().recorded()).sum(), tasks.stream().mapToLong(t -> t.cpu().replayed()).sum(),
        tasks.stream().mapToLong(t -> t.freeze().recorded()).sum(), tasks.stream().mapToLong(t -> t.freeze().replayed()).sum(),
        pools.stream().mapToLong(p -> p.states().recorded()).sum(), pools.stream().mapToLong(p -> p.states().replayed()).sum(),
        new Pair(tasks.stream().mapToDouble(t -> t.reclaimedCpuSeconds().recorded()).sum(),
            tasks.stream().mapToDouble(t -> t.reclaimedCpuSeconds().replayed()).sum()),
        new Pair(tasks.stream().mapToDouble(t -> t.overLimitSeconds().recorded()).sum(),
            tasks.stream().mapToDouble(t -> t.overLimitSeconds().replayed()).sum()),
        new Pair(nodes.stream().mapToDouble(n -> n.frozenTaskSeconds().recorded()).sum(),
            nodes.stream().mapToDouble(n -> n.frozenTaskSeconds().replayed()).sum()));
    ReplayReport.Range range = new ReplayReport.Range(recording.readFromMs(), fromMs, recording.toMs(), context.bootstrap(),
        context.topicPrefix(), recording.partitions(), context.nodesFilter(), context.poolsFilter(), replayed.recordsIn(),
        recording.unreadable() + recording.misplaced(), context.readSeconds(), context.replaySeconds());
    return new ReplayReport(range, overrides.given(), summary, tasks, nodes, pools, advice);
  }

  /** CPU-seconds reclaimed and over-limit seconds over every task, for the advisor's ranking. */
  public record Totals(double reclaimedCpuSeconds, double overLimitSeconds) {}

  public static Totals totals(Inputs inputs, List<Timed<CpuDecision>> decisions) {
    Map<String, List<Timed<CpuDecision>>> byKey = ReplayRun.byKey(decisions);
    java.util.stream.DoubleStream.Builder reclaimed = java.util.stream.DoubleStream.builder();
    java.util.stream.DoubleStream.Builder overLimit = java.util.stream.DoubleStream.builder();
    for (Map.Entry<String, List<Timed<CgroupSample>>> task : inputs.samples.entrySet()) {
      List<Timed<CpuDecision>> own = byKey.getOrDefault(task.getKey(), List.of());
      reclaimed.add(reclaimedCpuSeconds(task.getValue(), own, inputs.endMs));
      overLimit.add(overLimitSeconds(task.getValue(), own));
    }
    // Summed in task order with DoubleStream's compensated sum, as the report's summary is: a candidate's figure is
    // then the report's to the last bit (a plain += differed from it in the last digit).
    return new Totals(reclaimed.build().sum(), overLimit.build().sum());
  }

  private static Exactness taskExactness(String key, Recording recording, Inputs inputs, Replayed replayed) {
    List<String> why = new ArrayList<>();
    String at = Instant.ofEpochMilli(recording.readFromMs()).toString();
    if (recording.tasksBefore().contains(key)) {
      why.add("it ran before the input read (decisions recorded before the warm-up start " + at
          + "): its monitor state there is rebuilt from the warm-up only");
    }
    String node = TaskKey.nodeOf(key);
    if (!recording.tasksBefore().contains(key) && recording.nodesBefore().contains(node)) {
      why.add("its node " + node + " ran tasks before the warm-up start " + at + ": the node's peak gate is rebuilt from the warm-up only");
    }
    if (replayed.gatesMovedByOtherPartitions().contains(node)) {
      why.add("its node fell silent for 2 s or more while other partitions' records went on: a silent node's peak gate is moved "
          + "on by its partition's stream time, which live is its own partition's and in the replay every partition's (docs/replay.md)");
    }
    String pool = inputs.poolOf(key);
    if (pool != null && replayed.cappedPools().contains(pool)) {
      why.add("its pool " + pool + " was capped: a cap reaches a task through the app's internal topics, so when the live task "
          + "took it up depended on how far its partition had run (docs/pools.md)");
    }
    TaskSpec spec = inputs.specs.get(key);
    if (spec != null && spec.getMemoryNormalBytes() == null && replayed.learnedOperations().contains(spec.getOperation())) {
      why.add("its operation " + spec.getOperation() + " learned a memory profile in the range: profiles travel through the app's "
          + "internal topics, so when the live gate took it up depended on the app's progress");
    }
    return why.isEmpty()
        ? new Exactness(true, "its whole life is within the input read (from " + at + ")")
        : new Exactness(false, String.join("; ", why));
  }

  private static List<PoolReport> pools(Recording recording, Inputs inputs, Replayed replayed, Context context,
      Set<String> filter) {
    Map<String, List<Timed<PoolState>>> recorded = ReplayRun.byKey(recording.poolStates());
    Map<String, List<Timed<PoolState>>> replays = ReplayRun.byKey(replayed.poolStates());
    Set<String> pools = new TreeSet<>(recorded.keySet());
    pools.addAll(replays.keySet());
    List<PoolReport> reports = new ArrayList<>();
    String at = Instant.ofEpochMilli(recording.readFromMs()).toString();
    for (String pool : pools) {
      if (!filter.isEmpty() && !filter.contains(pool)) {
        continue;
      }
      List<String> why = new ArrayList<>();
      if (recording.poolsBefore().contains(pool)) {
        why.add("pool-state was recorded before the warm-up start " + at + ": the volume accumulated until then is not rebuilt");
      }
      Long changed = inputs.poolConfigChanges.containsKey(pool) ? inputs.poolConfigChanges.get(pool) : inputs.clusterConfigChange;
      if (changed != null) {
        why.add("its config or the cluster's was published in the range (first at " + Instant.ofEpochMilli(changed) + "): the live "
            + "pool processor takes a config up when it reads it, which may be before period reports stamped earlier that were "
            + "still on their way through the app's internal topic; the replay takes it up in time order (docs/replay.md)");
      }
      if (!context.nodesFilter().isEmpty()) {
        why.add("only nodes " + String.join(",", context.nodesFilter()) + " were read: the pool's tasks elsewhere are missing");
      }
      Exactness exactness = why.isEmpty() ? new Exactness(true, "its whole history is within the input read (from " + at + ")")
          : new Exactness(false, String.join("; ", why));
      List<Timed<PoolState>> a = inRange(recorded.getOrDefault(pool, List.of()), recording.fromMs());
      List<Timed<PoolState>> b = inRange(replays.getOrDefault(pool, List.of()), recording.fromMs());
      reports.add(new PoolReport(pool, exactness, DecisionDiff.compare(a, b),
          series(a, s -> s.getAccumulatedResourceVolumeCpu()), series(b, s -> s.getAccumulatedResourceVolumeCpu()),
          series(a, s -> s.getFairShareCpu()), series(b, s -> s.getFairShareCpu())));
    }
    return reports;
  }

  private static List<NodeReport> nodes(Inputs inputs, Set<String> keys, Map<String, List<Timed<FreezeDecision>>> recorded,
      Map<String, List<Timed<FreezeDecision>>> replayed, long fromMs) {
    Map<String, List<String>> tasksByNode = new TreeMap<>();
    keys.forEach(k -> tasksByNode.computeIfAbsent(TaskKey.nodeOf(k), n -> new ArrayList<>()).add(k));
    List<NodeReport> reports = new ArrayList<>();
    for (Map.Entry<String, List<String>> node : tasksByNode.entrySet()) {
      List<Interval> recordedFrozen = new ArrayList<>();
      List<Interval> replayedFrozen = new ArrayList<>();
      for (String task : node.getValue()) {
        recordedFrozen.addAll(frozen(task, recorded.getOrDefault(task, List.of()), fromMs, inputs.endMs));
        replayedFrozen.addAll(frozen(task, replayed.getOrDefault(task, List.of()), fromMs, inputs.endMs));
      }
      List<Point> memory = memory(inputs, node.getValue(), List.of());
      List<Point> heldByReplay = memory(inputs, node.getValue(), replayedFrozen);
      reports.add(new NodeReport(node.getKey(), new Pair(peak(memory), peak(heldByReplay)),
          new Pair(seconds(recordedFrozen, inputs.endMs), seconds(replayedFrozen, inputs.endMs)), memory, recordedFrozen, replayedFrozen));
    }
    return reports;
  }

  /** A task's frozen intervals within [from, end): FREEZE opens one (a renewal keeps it open), THAW closes it. */
  static List<Interval> frozen(String task, List<Timed<FreezeDecision>> decisions, long fromMs, long endMs) {
    List<Interval> intervals = new ArrayList<>();
    Long since = null;
    for (Timed<FreezeDecision> d : decisions) {
      if (d.value().getAction() == FreezeAction.FREEZE) {
        if (since == null) {
          since = d.timestampMs();
        }
      } else if (since != null) {
        if (d.timestampMs() > fromMs) {
          intervals.add(new Interval(TaskKey.parse(task).task(), Math.max(since, fromMs), Math.min(d.timestampMs(), Math.max(endMs, fromMs))));
        }
        since = null;
      }
    }
    if (since != null && since < endMs) {
      intervals.add(new Interval(TaskKey.parse(task).task(), Math.max(since, fromMs), null));
    }
    return intervals;
  }

  private static double seconds(List<Interval> intervals, long endMs) {
    return intervals.stream().mapToDouble(i -> Math.max(0, (i.toMs() == null ? endMs : i.toMs()) - i.fromMs()) / 1000.0).sum();
  }

  /**
   * The node's summed task memory at each sample time. With {@code heldWhileFrozen}, a task is held at the memory it had
   * when frozen until thawed (a frozen task allocates nothing): the node as the replay's freezes would have left it.
   */
  private static List<Point> memory(Inputs inputs, List<String> tasks, List<Interval> heldWhileFrozen) {
    TreeMap<Long, List<Timed<CgroupSample>>> byTime = new TreeMap<>();
    for (String task : tasks) {
      for (Timed<CgroupSample> s : inputs.samples.getOrDefault(task, List.of())) {
        byTime.computeIfAbsent(s.timestampMs(), t -> new ArrayList<>()).add(s);
      }
    }
    Map<String, List<Interval>> frozenByTask = new HashMap<>();
    heldWhileFrozen.forEach(i -> frozenByTask.computeIfAbsent(i.task(), t -> new ArrayList<>()).add(i));
    Map<String, Long> current = new HashMap<>();
    Map<String, Long> heldAt = new HashMap<>();
    List<Point> points = new ArrayList<>();
    for (Map.Entry<Long, List<Timed<CgroupSample>>> at : byTime.entrySet()) {
      for (Timed<CgroupSample> s : at.getValue()) {
        String task = s.value().getTask();
        if (s.value().getState() == SampleState.GONE) {
          current.remove(task);
          heldAt.remove(task);
          continue;
        }
        long bytes = s.value().getMemoryBytes();
        if (frozenAt(frozenByTask.getOrDefault(task, List.of()), at.getKey())) {
          heldAt.putIfAbsent(task, bytes); // the sample the freeze was decided on, or the first after it
          bytes = Math.min(bytes, heldAt.get(task));
        } else {
          heldAt.remove(task);
        }
        current.put(task, bytes);
      }
      points.add(new Point(at.getKey(), current.values().stream().mapToLong(Long::longValue).sum()));
    }
    return points;
  }

  /** Whether one of the task's own intervals covers {@code tMs}. */
  private static boolean frozenAt(List<Interval> intervals, long tMs) {
    for (Interval i : intervals) {
      if (tMs >= i.fromMs() && (i.toMs() == null || tMs < i.toMs())) {
        return true;
      }
    }
    return false;
  }

  private static double peak(List<Point> points) {
    return points.stream().mapToDouble(Point::value).max().orElse(0);
  }

  /** Cores used between consecutive samples, at the later one's time; a counter that went back (a new cgroup) starts over. */
  private static List<Point> usage(List<Timed<CgroupSample>> samples) {
    List<Point> points = new ArrayList<>();
    for (int i = 1; i < samples.size(); i++) {
      double cores = cores(samples.get(i - 1).value(), samples.get(i).value());
      if (!Double.isNaN(cores)) {
        points.add(new Point(samples.get(i).timestampMs(), cores));
      }
    }
    return points;
  }

  private static double cores(CgroupSample before, CgroupSample after) {
    long dtMs = after.getTsMs() - before.getTsMs();
    long dUsec = after.getCpuUsageUsec() - before.getCpuUsageUsec();
    return dtMs <= 0 || dUsec < 0 ? Double.NaN : dUsec / 1000.0 / dtMs;
  }

  /**
   * The decision in force as time moves forward: one pass over a task's decisions for all its samples, where looking
   * each sample's up from the start would cost samples × decisions.
   */
  private static final class InForce {
    private final List<Timed<CpuDecision>> decisions;
    private int next;
    private CpuDecision current;

    InForce(List<Timed<CpuDecision>> decisions) {
      this.decisions = decisions;
    }

    /** The last decision at or before {@code tMs}; calls must not go back in time. */
    CpuDecision at(long tMs) {
      while (next < decisions.size() && decisions.get(next).timestampMs() <= tMs) {
        current = decisions.get(next++).value();
      }
      return current;
    }
  }

  /** Σ (hard − effective) × interval, over the sample intervals in range with a decision in force at their start. */
  static double reclaimedCpuSeconds(List<Timed<CgroupSample>> samples, List<Timed<CpuDecision>> decisions, long endMs) {
    double total = 0;
    InForce inForce = new InForce(decisions);
    for (int i = 1; i < samples.size(); i++) {
      long startMs = samples.get(i - 1).timestampMs();
      long stopMs = Math.min(samples.get(i).timestampMs(), endMs);
      CpuDecision d = inForce.at(startMs);
      if (d != null && stopMs > startMs) {
        total += Math.max(0, d.getHardLimitCpu() - d.getEffectiveLimitCpu()) * (stopMs - startMs) / 1000.0;
      }
    }
    return total;
  }

  /**
   * Seconds the task's recorded usage was above the effective limit in force (a weightless task's: its quota): the
   * time it would have been held back under contention. An estimate: the replay cannot know how the task would
   * have run under other limits, only how much of what it did run was above them.
   */
  static double overLimitSeconds(List<Timed<CgroupSample>> samples, List<Timed<CpuDecision>> decisions) {
    double total = 0;
    InForce inForce = new InForce(decisions);
    for (int i = 1; i < samples.size(); i++) {
      long startMs = samples.get(i - 1).timestampMs();
      double cores = cores(samples.get(i - 1).value(), samples.get(i).value());
      CpuDecision d = inForce.at(startMs);
      if (d != null && !Double.isNaN(cores) && cores > heldToCpu(d) * 1.001) {
        total += (samples.get(i).timestampMs() - startMs) / 1000.0;
      }
    }
    return total;
  }

  /**
   * What the task is held to: its effective limit; for a weightless task (effective limit 0, DESIGN §2), which is meant
   * to run on idle CPU only, its CFS quota when it has one, else nothing — its usage is never "over".
   */
  private static double heldToCpu(CpuDecision d) {
    if (d.getEffectiveLimitCpu() > 0) {
      return d.getEffectiveLimitCpu();
    }
    long quotaUs = d.getCgroup().getQuotaUs();
    return quotaUs > 0 ? (double) quotaUs / d.getCgroup().getPeriodUs() : Double.POSITIVE_INFINITY;
  }

  /** A decision field as steps: the value in force at --from, then each change. */
  private static List<Point> steps(List<Timed<CpuDecision>> decisions, long fromMs, ToDoubleFunction<CpuDecision> field) {
    List<Point> points = new ArrayList<>();
    CpuDecision atFrom = new InForce(decisions).at(fromMs);
    if (atFrom != null) {
      points.add(new Point(fromMs, field.applyAsDouble(atFrom)));
    }
    for (Timed<CpuDecision> d : decisions) {
      if (d.timestampMs() > fromMs) {
        points.add(new Point(d.timestampMs(), field.applyAsDouble(d.value())));
      }
    }
    return points;
  }

  private static List<Point> series(List<Timed<PoolState>> states, ToDoubleFunction<PoolState> field) {
    return states.stream().map(s -> new Point(s.timestampMs(), field.applyAsDouble(s.value()))).toList();
  }

  static <V> List<Timed<V>> inRange(List<Timed<V>> records, long fromMs) {
    return records.stream().filter(r -> r.timestampMs() >= fromMs).toList();
  }
}
