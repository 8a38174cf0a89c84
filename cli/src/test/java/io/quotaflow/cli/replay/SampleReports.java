package io.quotaflow.cli.replay;

import io.quotaflow.cli.replay.ReplayReport.Advice;
import io.quotaflow.cli.replay.ReplayReport.Candidate;
import io.quotaflow.cli.replay.ReplayReport.Diff;
import io.quotaflow.cli.replay.ReplayReport.Exactness;
import io.quotaflow.cli.replay.ReplayReport.Interval;
import io.quotaflow.cli.replay.ReplayReport.NodeReport;
import io.quotaflow.cli.replay.ReplayReport.Pair;
import io.quotaflow.cli.replay.ReplayReport.Point;
import io.quotaflow.cli.replay.ReplayReport.PoolReport;
import io.quotaflow.cli.replay.ReplayReport.Range;
import io.quotaflow.cli.replay.ReplayReport.Summary;
import io.quotaflow.cli.replay.ReplayReport.TaskReport;
import java.util.ArrayList;
import java.util.List;

/** Replay reports built by hand, as the replay command would fill them, for the report writers' tests. */
final class SampleReports {

  static final long READ_FROM_MS = 1_764_136_800_000L; // 2025-11-26T06:00:00Z
  static final long FROM_MS = READ_FROM_MS + 60_000;
  static final long TO_MS = READ_FROM_MS + 600_000;
  static final String HOSTILE_KEY = "node-a/web&<script>alert('x')</script>";
  static final String CALM_KEY = "node-a/db";

  private SampleReports() {}

  /**
   * Two tasks (one with a hostile key, one with empty series), one node with freeze intervals (one still open),
   * one pool whose fair share has no data, and an advice whose best candidate is over the bound.
   */
  static ReplayReport twoTasks() {
    Range range = new Range(READ_FROM_MS, FROM_MS, TO_MS, "broker-1:9092", "qf.", 6, List.of("node-a"), List.of(),
        12_345, 2, 1.25, 3.5);
    Summary summary = new Summary(2, 1, 1, 1, 12, 13, 2, 2, 40, 40, new Pair(100.0, 112.5), new Pair(10.0, 7.5),
        new Pair(60.0, 480.0));
    TaskReport hostile = new TaskReport(HOSTILE_KEY, "batch", new Exactness(true, "whole life within the input read"),
        Diff.identical(4), Diff.identical(0), new Pair(80.0, 90.0), new Pair(6.0, 4.0),
        every10s(i -> 0.5 + (i % 7) * 0.1), List.of(new Point(READ_FROM_MS, 2.0)),
        List.of(new Point(READ_FROM_MS, 1.5), new Point(FROM_MS + 100_000, 1.2)),
        List.of(new Point(READ_FROM_MS, 1.5), new Point(FROM_MS + 100_000, 1.0)),
        List.of(new Point(READ_FROM_MS, 1.5), new Point(FROM_MS + 80_000, 1.1)),
        List.of(new Point(READ_FROM_MS, 1.5), new Point(FROM_MS + 80_000, 0.9)));
    TaskReport calm = new TaskReport(CALM_KEY, null, new Exactness(false, "started before the input read (<warm-up>)"),
        new Diff(8, 9, false, "decision 3 at 06:02:05: effective_limit_cpu 0.75 recorded, 0.80 replayed",
            List.of("effective_limit_cpu")),
        Diff.identical(2), new Pair(20.0, 22.5), new Pair(4.0, 3.5),
        List.of(), List.of(new Point(READ_FROM_MS, 1.0)), List.of(), List.of(), List.of(), List.of());
    NodeReport node = new NodeReport("node-a", new Pair(3.0 * (1L << 30), 2.5 * (1L << 30)), new Pair(60.0, 480.0),
        every10s(i -> (2.0 + (i % 5) * 0.2) * (1L << 30)),
        List.of(new Interval(CALM_KEY, FROM_MS + 100_000, FROM_MS + 160_000)),
        List.of(new Interval(CALM_KEY, FROM_MS + 120_000, null)));
    PoolReport pool = new PoolReport("batch", new Exactness(true, "every member exact"), Diff.identical(40),
        every10s(i -> i * 12.0), every10s(i -> i * 11.5), List.of(), List.of());
    Advice advice = new Advice(30.0, new Candidate(List.of(), 100.0, 10.0, true), List.of(
        new Candidate(List.of("cpu.idle_threshold=0.3", "cpu.step=0.2"), 500.0, 80.0, false),
        new Candidate(List.of("cpu.idle_threshold=0.2"), 400.0, 20.0, true),
        new Candidate(List.of("cpu.note=a b"), 150.0, 12.0, true)));
    return new ReplayReport(range, List.of("cpu.idle_threshold=0.15"), summary, List.of(calm, hostile), List.of(node),
        List.of(pool), advice);
  }

  /** {@code report} with its first task's usage replaced. */
  static ReplayReport withUsage(ReplayReport report, List<Point> usage) {
    List<TaskReport> tasks = new ArrayList<>(report.tasks());
    TaskReport task = tasks.get(0);
    tasks.set(0, new TaskReport(task.key(), task.pool(), task.exactness(), task.cpu(), task.freeze(),
        task.reclaimedCpuSeconds(), task.overLimitSeconds(), usage, task.hardLimit(), task.recordedSoft(),
        task.recordedEffective(), task.replayedSoft(), task.replayedEffective()));
    return new ReplayReport(report.range(), report.overrides(), report.summary(), tasks, report.nodes(), report.pools(),
        report.advice());
  }

  /** A point every 10 s over the whole read. */
  static List<Point> every10s(java.util.function.IntToDoubleFunction value) {
    List<Point> points = new ArrayList<>();
    for (int i = 0; READ_FROM_MS + i * 10_000L < TO_MS; i++) {
      points.add(new Point(READ_FROM_MS + i * 10_000L, value.applyAsDouble(i)));
    }
    return points;
  }
}
