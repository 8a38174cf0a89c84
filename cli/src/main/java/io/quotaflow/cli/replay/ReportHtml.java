package io.quotaflow.cli.replay;

import static io.quotaflow.cli.replay.Figures.text;

import io.quotaflow.cli.replay.ReplayReport.Advice;
import io.quotaflow.cli.replay.ReplayReport.Candidate;
import io.quotaflow.cli.replay.ReplayReport.NodeReport;
import io.quotaflow.cli.replay.ReplayReport.Pair;
import io.quotaflow.cli.replay.ReplayReport.PoolReport;
import io.quotaflow.cli.replay.ReplayReport.Range;
import io.quotaflow.cli.replay.ReplayReport.Summary;
import io.quotaflow.cli.replay.ReplayReport.TaskReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The replay report as one HTML file: inline CSS and inline SVG, nothing fetched, so it opens offline, from a
 * mail attachment or a CI artifact alike. Page order: what was replayed, the summary, the advice (with
 * {@code --advise}), the tasks table, then a section per task, per node and per pool.
 */
public final class ReportHtml {

  /** Advice candidates listed; the search may try many more, and the best are first. */
  static final int CANDIDATES_SHOWN = 20;

  private static final String STYLE = """
      body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
             font-size: 14px; color: #222; max-width: 1100px; margin: 0 auto; padding: 16px 24px; }
      h1 { margin-bottom: 4px; } h2 { margin-top: 32px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
      h3 { margin: 24px 0 4px; word-break: break-all; } h4 { margin: 8px 0 2px; font-weight: normal; color: #555; }
      nav a { margin-right: 12px; }
      table { border-collapse: collapse; margin: 8px 0; }
      th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
      th { background: #f4f4f4; }
      td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
      table.tasks td { font-size: 13px; } table.tasks td.key { word-break: break-all; min-width: 11em; }
      tr.differs { background: #fff6e6; } tr.advice { background: #e3f4e6; font-weight: 600; }
      .reason, .facts { color: #555; } .reason { font-size: 12px; }
      code.command { user-select: all; background: #f4f4f4; padding: 1px 4px; line-height: 1.6; }
      svg.chart { display: block; max-width: 100%; height: auto; }
      svg.chart text { fill: #444; font-family: inherit; }
      """;

  private ReportHtml() {}

  /** The whole page. */
  public static String render(ReplayReport report) {
    StringBuilder html = new StringBuilder(64 * 1024);
    html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>Quotaflow replay</title>\n<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n");
    html.append("<h1>Quotaflow replay</h1>\n<nav><a href=\"#summary\">Summary</a>");
    if (report.advice() != null) {
      html.append("<a href=\"#advice\">Advice</a>");
    }
    html.append("<a href=\"#tasks\">Tasks</a><a href=\"#nodes\">Nodes</a><a href=\"#pools\">Pools</a></nav>\n");
    range(html, report.range(), orEmpty(report.overrides()));
    summary(html, report.summary());
    if (report.advice() != null) {
      advice(html, report.advice());
    }
    List<PoolReport> pools = orEmpty(report.pools());
    tasksTable(html, orEmpty(report.tasks()), poolIndexes(pools));
    ChartSections sections = new ChartSections(report);
    List<TaskReport> tasks = orEmpty(report.tasks());
    if (!tasks.isEmpty()) {
      html.append("<h2 id=\"task-charts\">Task limits</h2>\n");
    }
    for (int i = 0; i < tasks.size(); i++) {
      sections.task(html, i, tasks.get(i));
    }
    html.append("<h2 id=\"nodes\">Nodes</h2>\n");
    List<NodeReport> nodes = orEmpty(report.nodes());
    if (nodes.isEmpty()) {
      html.append("<p>No nodes.</p>\n");
    }
    for (int i = 0; i < nodes.size(); i++) {
      sections.node(html, i, nodes.get(i));
    }
    html.append("<h2 id=\"pools\">Pools</h2>\n");
    if (pools.isEmpty()) {
      html.append("<p>No pools.</p>\n");
    }
    for (int i = 0; i < pools.size(); i++) {
      sections.pool(html, i, pools.get(i));
    }
    html.append("</body>\n</html>\n");
    return html.toString();
  }

  /** Writes the page to {@code file} (UTF-8), replacing it. */
  public static void write(ReplayReport report, Path file) throws IOException {
    Files.writeString(file, render(report), StandardCharsets.UTF_8);
  }

  private static void range(StringBuilder html, Range range, List<String> overrides) {
    html.append("<table class=\"range\">\n");
    row(html, "Read from", Figures.utc(range.readFromMs()) + " <span class=\"reason\">(warm-up)</span>");
    row(html, "Compared", Figures.utc(range.fromMs()) + " to " + Figures.utc(range.toMs()));
    row(html, "Bootstrap", text(range.bootstrap()));
    row(html, "Topic prefix", text(range.topicPrefix()));
    row(html, "Partitions", Integer.toString(range.partitions()));
    row(html, "Nodes", filter(range.nodesFilter()));
    row(html, "Pools", filter(range.poolsFilter()));
    row(html, "Input records", Long.toString(range.inputRecords()));
    row(html, "Unreadable records", Long.toString(range.unreadable()));
    row(html, "Read", Figures.seconds(range.readSeconds()));
    row(html, "Replay", Figures.seconds(range.replaySeconds()));
    row(html, "Overrides", overrides.isEmpty() ? "unchanged parameters"
        : "<code class=\"command\">" + setArguments(overrides) + "</code>");
    html.append("</table>\n");
  }

  private static void summary(StringBuilder html, Summary summary) {
    html.append("<h2 id=\"summary\">Summary</h2>\n<table class=\"summary\">\n");
    numberRow(html, "Tasks", summary.tasks());
    numberRow(html, "Exact", summary.exactTasks());
    numberRow(html, "Exact and matching", summary.exactTasksMatching());
    numberRow(html, "Differing", summary.tasksDiffering());
    html.append("</table>\n<table class=\"decisions\">\n<tr><th>Decisions</th><th>recorded</th><th>replayed</th></tr>\n");
    countsRow(html, "cpu", summary.recordedCpuDecisions(), summary.replayedCpuDecisions());
    countsRow(html, "freeze", summary.recordedFreezeDecisions(), summary.replayedFreezeDecisions());
    countsRow(html, "pool-state", summary.recordedPoolStates(), summary.replayedPoolStates());
    html.append("</table>\n<table class=\"totals\">\n")
        .append("<tr><th>Over all tasks</th><th>recorded</th><th>replayed</th><th>change</th></tr>\n");
    pairRow(html, "Reclaimed CPU-seconds", summary.reclaimedCpuSeconds());
    pairRow(html, "Over-limit seconds", summary.overLimitSeconds());
    pairRow(html, "Frozen task-seconds", summary.frozenTaskSeconds());
    html.append("</table>\n");
  }

  private static void advice(StringBuilder html, Advice advice) {
    html.append("<h2 id=\"advice\">Advice</h2>\n");
    List<Candidate> candidates = orEmpty(advice.candidates());
    int adviceIndex = -1;
    for (int i = 0; i < candidates.size() && adviceIndex < 0; i++) {
      if (candidates.get(i).withinBound()) {
        adviceIndex = i;
      }
    }
    html.append("<p>Bound: a setting may add at most ").append(Figures.seconds(advice.maxAddedOverLimitSeconds()))
        .append(" of over-limit time to the baseline's.</p>\n");
    Candidate baseline = advice.baseline();
    if (baseline != null) {
      html.append("<p>Baseline (the parameters in force): ").append(Figures.decimal(baseline.reclaimedCpuSeconds()))
          .append(" CPU-seconds reclaimed, ").append(Figures.seconds(baseline.overLimitSeconds()))
          .append(" over the limit.</p>\n");
    }
    if (adviceIndex < 0) {
      html.append("<p><strong>No setting tried stays within the bound.</strong></p>\n");
    } else {
      Candidate best = candidates.get(adviceIndex);
      html.append("<p><strong>Advice:</strong> <code class=\"command\">").append(setArguments(orEmpty(best.sets())))
          .append("</code> reclaims ").append(Figures.decimal(best.reclaimedCpuSeconds())).append(" CPU-seconds");
      if (baseline != null) {
        html.append(" (").append(Figures.signed(best.reclaimedCpuSeconds() - baseline.reclaimedCpuSeconds()))
            .append(" on the baseline)");
      }
      html.append(" with ").append(Figures.seconds(best.overLimitSeconds())).append(" over the limit.</p>\n");
    }
    int shown = Math.min(CANDIDATES_SHOWN, candidates.size());
    html.append("<table class=\"candidates\">\n<tr><th>#</th><th>setting</th><th>reclaimed CPU-seconds</th>")
        .append("<th>over-limit seconds</th><th>within bound</th></tr>\n");
    for (int i = 0; i < shown; i++) {
      Candidate candidate = candidates.get(i);
      html.append(i == adviceIndex ? "<tr class=\"advice\">" : "<tr>").append("<td class=\"num\">").append(i + 1)
          .append("</td><td><code class=\"command\">").append(setArguments(orEmpty(candidate.sets())))
          .append("</code></td><td class=\"num\">").append(Figures.decimal(candidate.reclaimedCpuSeconds()))
          .append("</td><td class=\"num\">").append(Figures.decimal(candidate.overLimitSeconds()))
          .append("</td><td>").append(candidate.withinBound() ? "yes" : "no").append("</td></tr>\n");
    }
    html.append("</table>\n");
    if (candidates.size() > shown) {
      html.append("<p class=\"facts\">").append(candidates.size() - shown)
          .append(" more settings tried; the JSON lists them all.</p>\n");
    }
  }

  private static void tasksTable(StringBuilder html, List<TaskReport> tasks, Map<String, Integer> poolIndexes) {
    html.append("<h2 id=\"tasks\">Tasks</h2>\n");
    if (tasks.isEmpty()) {
      html.append("<p>No tasks in the compared range.</p>\n");
      return;
    }
    html.append("<table class=\"tasks\">\n<tr><th>task</th><th>pool</th><th>replay</th><th>cpu decisions</th>")
        .append("<th>freeze decisions</th><th>reclaimed CPU-s<br>recorded → replayed</th>")
        .append("<th>over-limit s<br>recorded → replayed</th></tr>\n");
    for (int i = 0; i < tasks.size(); i++) {
      TaskReport task = tasks.get(i);
      boolean differs = (task.cpu() != null && !task.cpu().identical())
          || (task.freeze() != null && !task.freeze().identical());
      html.append(differs ? "<tr class=\"differs\">" : "<tr>").append("<td class=\"key\"><a href=\"#")
          .append(ChartSections.taskAnchor(i)).append("\">").append(text(task.key())).append("</a></td><td>")
          .append(poolLink(task.pool(), poolIndexes)).append("</td><td>").append(Figures.exactness(task.exactness()))
          .append("</td><td>").append(text(Figures.diffBrief(task.cpu()))).append("</td><td>")
          .append(text(Figures.diffBrief(task.freeze()))).append("</td><td class=\"num\">")
          .append(arrow(task.reclaimedCpuSeconds())).append("</td><td class=\"num\">")
          .append(arrow(task.overLimitSeconds())).append("</td></tr>\n");
    }
    html.append("</table>\n");
  }

  private static String poolLink(String pool, Map<String, Integer> poolIndexes) {
    if (pool == null) {
      return "<em>none</em>";
    }
    Integer index = poolIndexes.get(pool);
    return index == null ? text(pool)
        : "<a href=\"#" + ChartSections.poolAnchor(index) + "\">" + text(pool) + "</a>";
  }

  private static Map<String, Integer> poolIndexes(List<PoolReport> pools) {
    Map<String, Integer> indexes = new HashMap<>();
    for (int i = 0; i < pools.size(); i++) {
      indexes.putIfAbsent(pools.get(i).pool(), i);
    }
    return indexes;
  }

  /** The arguments as a user pastes them after {@code quotaflow replay}, escaped. */
  static String setArguments(List<String> sets) {
    return text(ShellWords.setArguments(sets));
  }

  private static String filter(List<String> filter) {
    return filter == null || filter.isEmpty() ? "all" : text(String.join(", ", filter));
  }

  private static String arrow(Pair pair) {
    return pair == null ? Figures.NOT_AVAILABLE : Figures.decimal(pair.recorded()) + " → " + Figures.decimal(pair.replayed());
  }

  private static void row(StringBuilder html, String label, String valueHtml) {
    html.append("<tr><th>").append(label).append("</th><td>").append(valueHtml).append("</td></tr>\n");
  }

  private static void numberRow(StringBuilder html, String label, long value) {
    html.append("<tr><th>").append(label).append("</th><td class=\"num\">").append(value).append("</td></tr>\n");
  }

  private static void countsRow(StringBuilder html, String label, long recorded, long replayed) {
    html.append(recorded == replayed ? "<tr>" : "<tr class=\"differs\">").append("<td>").append(label)
        .append("</td><td class=\"num\">").append(recorded).append("</td><td class=\"num\">").append(replayed)
        .append("</td></tr>\n");
  }

  private static void pairRow(StringBuilder html, String label, Pair pair) {
    html.append("<tr><td>").append(label).append("</td><td class=\"num\">")
        .append(pair == null ? Figures.NOT_AVAILABLE : Figures.decimal(pair.recorded())).append("</td><td class=\"num\">")
        .append(pair == null ? Figures.NOT_AVAILABLE : Figures.decimal(pair.replayed())).append("</td><td class=\"num\">")
        .append(pair == null ? Figures.NOT_AVAILABLE : Figures.signed(pair.change())).append("</td></tr>\n");
  }

  private static <T> List<T> orEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }
}
