package io.quotaflow.cli.replay;

import static io.quotaflow.cli.replay.Figures.text;

import io.quotaflow.cli.replay.ReplayReport.NodeReport;
import io.quotaflow.cli.replay.ReplayReport.Point;
import io.quotaflow.cli.replay.ReplayReport.PoolReport;
import io.quotaflow.cli.replay.ReplayReport.Range;
import io.quotaflow.cli.replay.ReplayReport.TaskReport;
import java.util.List;

/**
 * The report's per-task, per-node and per-pool sections, each a heading, its figures and its charts. Sections are
 * anchored by position ({@code task-3}), never by the user's key, which may hold anything.
 */
final class ChartSections {

  static final int WIDTH_PX = 900;
  static final int TASK_HEIGHT_PX = 220;
  static final int NODE_HEIGHT_PX = 220;
  static final int POOL_HEIGHT_PX = 190;

  // One colour per quantity; recorded solid, replayed dashed, so the two coincide where the replay agrees.
  private static final String USAGE = "#4d4d4d";
  private static final String HARD_LIMIT = "#d62728";
  private static final String SOFT_LIMIT = "#1f77b4";
  private static final String EFFECTIVE_LIMIT = "#2ca02c";
  private static final String RECORDED_FROZEN = "#ff7f0e";
  private static final String REPLAYED_FROZEN = "#9467bd";
  private static final String POOL_FIGURE = "#1f77b4";

  private final Range range;
  /** Where the charts' time axis starts: the read's start, or the first data point when the recording begins later. */
  private final long axisFromMs;
  /** And ends: --to, or the last data point when the recording ends before it. */
  private final long axisToMs;

  ChartSections(ReplayReport report) {
    this.range = report.range();
    List<List<Point>> series = series(report);
    long first = series.stream().mapToLong(s -> s.get(0).tMs()).min().orElse(range.readFromMs());
    long last = series.stream().mapToLong(s -> s.get(s.size() - 1).tMs()).max().orElse(range.toMs());
    this.axisFromMs = Math.max(range.readFromMs(), Math.min(range.fromMs(), first));
    this.axisToMs = Math.max(Math.min(range.toMs(), last), range.fromMs());
  }

  /** Every non-empty series the charts draw. */
  private static List<List<Point>> series(ReplayReport report) {
    java.util.stream.Stream<List<Point>> series = java.util.stream.Stream.of(
        orEmpty(report.tasks()).stream().flatMap(t -> java.util.stream.Stream.of(t.usage(), t.recordedEffective(), t.replayedEffective())),
        orEmpty(report.nodes()).stream().map(NodeReport::memory),
        orEmpty(report.pools()).stream().flatMap(p -> java.util.stream.Stream.of(p.recordedVolume(), p.replayedVolume())))
        .flatMap(s -> s);
    return series.filter(s -> s != null && !s.isEmpty()).toList();
  }

  static String taskAnchor(int index) {
    return "task-" + index;
  }

  static String nodeAnchor(int index) {
    return "node-" + index;
  }

  static String poolAnchor(int index) {
    return "pool-" + index;
  }

  void task(StringBuilder html, int index, TaskReport task) {
    html.append("<section class=\"chart-section\" id=\"").append(taskAnchor(index)).append("\">\n<h3>")
        .append(text(task.key())).append("</h3>\n<p class=\"facts\">pool ")
        .append(task.pool() == null ? "<em>none</em>" : text(task.pool())).append(" · ")
        .append(Figures.exactness(task.exactness())).append(" · cpu ").append(Figures.diffWords(task.cpu()))
        .append(" · freeze ").append(Figures.diffWords(task.freeze())).append("</p>\n");
    html.append(chart(TASK_HEIGHT_PX, "cores")
        .line("usage", task.usage(), USAGE)
        .step("hard limit", task.hardLimit(), HARD_LIMIT, false)
        .step("soft, recorded", task.recordedSoft(), SOFT_LIMIT, false)
        .step("effective, recorded", task.recordedEffective(), EFFECTIVE_LIMIT, false)
        .step("soft, replayed", task.replayedSoft(), SOFT_LIMIT, true)
        .step("effective, replayed", task.replayedEffective(), EFFECTIVE_LIMIT, true)
        .render());
    html.append("</section>\n");
  }

  void node(StringBuilder html, int index, NodeReport node) {
    html.append("<section class=\"chart-section\" id=\"").append(nodeAnchor(index)).append("\">\n<h3>")
        .append(text(node.node())).append("</h3>\n<table class=\"figures\"><tr><th></th><th>recorded</th>")
        .append("<th>replayed</th></tr>\n<tr><td>peak memory</td><td>")
        .append(Figures.bytes(node.peakMemoryBytes().recorded())).append("</td><td>")
        .append(Figures.bytes(node.peakMemoryBytes().replayed())).append("</td></tr>\n<tr><td>frozen task-seconds</td><td>")
        .append(Figures.seconds(node.frozenTaskSeconds().recorded())).append("</td><td>")
        .append(Figures.seconds(node.frozenTaskSeconds().replayed())).append("</td></tr>\n</table>\n");
    List<Point> memory = orEmpty(node.memory());
    double peakBytes = memory.stream().mapToDouble(Point::value).filter(Double::isFinite).max().orElse(0);
    double unitBytes = Figures.memoryUnitBytes(peakBytes);
    List<Point> scaled = memory.stream().map(point -> new Point(point.tMs(), point.value() / unitBytes)).toList();
    html.append(chart(NODE_HEIGHT_PX, Figures.memoryUnitName(unitBytes))
        .line("memory", scaled, USAGE)
        .shade("frozen, recorded", node.recordedFrozen(), RECORDED_FROZEN)
        .shade("frozen, replayed", node.replayedFrozen(), REPLAYED_FROZEN)
        .render());
    html.append("</section>\n");
  }

  void pool(StringBuilder html, int index, PoolReport pool) {
    html.append("<section class=\"chart-section\" id=\"").append(poolAnchor(index)).append("\">\n<h3>")
        .append(text(pool.pool())).append("</h3>\n<p class=\"facts\">").append(Figures.exactness(pool.exactness()))
        .append(" · pool states ").append(Figures.diffWords(pool.states())).append("</p>\n");
    html.append("<h4>Volume</h4>\n").append(chart(POOL_HEIGHT_PX, "cpu-seconds")
        .step("volume, recorded", pool.recordedVolume(), POOL_FIGURE, false)
        .step("volume, replayed", pool.replayedVolume(), POOL_FIGURE, true)
        .render());
    html.append("<h4>Fair share</h4>\n").append(chart(POOL_HEIGHT_PX, "cores")
        .step("fair share, recorded", pool.recordedFairShare(), POOL_FIGURE, false)
        .step("fair share, replayed", pool.replayedFairShare(), POOL_FIGURE, true)
        .render());
    html.append("</section>\n");
  }

  /**
   * A chart over the read, the warm-up included (from the first data point when the recording starts later), with the
   * start of the compared range marked.
   */
  private SvgChart chart(int heightPx, String unit) {
    SvgChart chart = new SvgChart(axisFromMs, axisToMs, WIDTH_PX, heightPx, unit);
    if (range.fromMs() > axisFromMs) {
      chart.marker(range.fromMs(), "compared from " + Figures.utc(range.fromMs()));
    }
    return chart;
  }

  private static <T> List<T> orEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }
}
