package io.quotaflow.cli.replay;

import io.quotaflow.cli.replay.ReplayReport.Candidate;
import io.quotaflow.cli.replay.ReplayReport.Pair;
import io.quotaflow.cli.replay.ReplayReport.TaskReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/** What {@code replay} prints when it is done: the report's headline, the tasks that differ, the advice, where the files are. */
public final class ReplaySummary {

  private static final int LISTED = 10;

  private ReplaySummary() {}

  public static void print(PrintWriter out, ReplayReport report, Path html, Path json) {
    ReplayReport.Range range = report.range();
    ReplayReport.Summary s = report.summary();
    double seconds = range.readSeconds() + range.replaySeconds();
    out.printf("replayed %,d input records: read in %.1f s, replayed in %.1f s (%,.0f records/s replayed, %,.0f end to end)%n",
        range.inputRecords(), range.readSeconds(), range.replaySeconds(), range.inputRecords() / Math.max(range.replaySeconds(), 1e-9),
        range.inputRecords() / Math.max(seconds, 1e-9));
    if (range.unreadable() > 0) {
      out.printf("%,d input records could not be used (undecodable or in the wrong partition: the live app sent them to its DLQ)%n",
          range.unreadable());
    }
    out.println(report.overrides().isEmpty() ? "parameters: unchanged" : "parameters: " + String.join(" ", report.overrides()));
    out.printf("tasks: %d, exact %d, exact and identical %d, differing %d%n", s.tasks(), s.exactTasks(), s.exactTasksMatching(),
        s.tasksDiffering());
    out.printf("decisions recorded/replayed: cpu %d/%d, freeze %d/%d, pool-state %d/%d%n", s.recordedCpuDecisions(),
        s.replayedCpuDecisions(), s.recordedFreezeDecisions(), s.replayedFreezeDecisions(), s.recordedPoolStates(),
        s.replayedPoolStates());
    figure(out, "CPU-seconds reclaimed", s.reclaimedCpuSeconds());
    figure(out, "over-limit seconds", s.overLimitSeconds());
    figure(out, "frozen task-seconds", s.frozenTaskSeconds());
    List<TaskReport> differing = report.tasks().stream().filter(t -> !t.cpu().identical() || !t.freeze().identical()).toList();
    differing.stream().limit(LISTED).forEach(t -> out.printf("  %s (%s): %s%n", t.key(),
        t.exactness().exact() ? "exact" : "approximate: " + Figures.shortReason(t.exactness().reason()),
        !t.cpu().identical() ? "cpu " + Figures.diffBrief(t.cpu()) : "freeze " + Figures.diffBrief(t.freeze())));
    if (differing.size() > LISTED) {
      out.printf("  … %d more in the report%n", differing.size() - LISTED);
    }
    if (report.advice() != null) {
      advice(out, report.advice());
    }
    out.println("report: " + html + " (JSON: " + json + ")");
  }

  private static void figure(PrintWriter out, String name, Pair pair) {
    out.printf("%s: recorded %.1f, replayed %.1f (%+.1f)%n", name, pair.recorded(), pair.replayed(), pair.change());
  }

  private static void advice(PrintWriter out, ReplayReport.Advice advice) {
    Candidate baseline = advice.baseline();
    out.printf("advisor: %d settings replayed; baseline reclaims %.1f CPU-s with %.1f over-limit s; bound +%.1f s%n",
        advice.candidates().size(), baseline.reclaimedCpuSeconds(), baseline.overLimitSeconds(), advice.maxAddedOverLimitSeconds());
    List<Candidate> within = advice.candidates().stream().filter(Candidate::withinBound).limit(5).toList();
    if (within.isEmpty() || within.get(0).reclaimedCpuSeconds() <= baseline.reclaimedCpuSeconds()) {
      out.println("advice: keep the parameters in force: no setting tried reclaims more within the bound");
    }
    for (Candidate c : within) {
      out.printf("  reclaims %.1f CPU-s (%+.1f), over-limit %.1f s (%+.1f): %s%n", c.reclaimedCpuSeconds(),
          c.reclaimedCpuSeconds() - baseline.reclaimedCpuSeconds(), c.overLimitSeconds(),
          c.overLimitSeconds() - baseline.overLimitSeconds(), ShellWords.setArguments(c.sets()));
    }
  }
}
