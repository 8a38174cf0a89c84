package io.quotaflow.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cli.replay.ReplayReport.Point;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportHtmlTest {

  private static final Pattern COORDINATE = Pattern.compile("(-?\\d+(?:\\.\\d+)?),(-?\\d+(?:\\.\\d+)?)");

  @TempDir
  Path dir;

  @Test
  void thePageFetchesNothing() {
    String html = ReportHtml.render(SampleReports.twoTasks());

    assertThat(html).doesNotContain("http://", "https://", "src=\"//", "href=\"//", "url(", "<script", "<link",
        "<img");
  }

  @Test
  void eachChartIsOneInlineSvg() {
    String html = ReportHtml.render(SampleReports.twoTasks());

    // Two tasks, one node, one pool drawn as volume and fair share.
    assertThat(count(html, "<svg")).isEqualTo(5);
    assertThat(count(html, "</svg>")).isEqualTo(5);
  }

  @Test
  void aHostileKeyIsEscapedAndAnchoredByPosition() {
    String html = ReportHtml.render(SampleReports.twoTasks());

    assertThat(html).doesNotContain("<script>", "alert('x')");
    assertThat(html).contains("node-a/web&amp;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
    assertThat(html).contains("(&lt;warm-up&gt;)");
    // Tasks are sorted by key in the report; the hostile one is second, so its section is task-1.
    assertThat(html).contains("<a href=\"#task-1\">node-a/web&amp;&lt;script&gt;");
    assertThat(html).contains("id=\"task-0\"", "id=\"task-1\"", "id=\"node-0\"", "id=\"pool-0\"");
  }

  @Test
  void theHeaderSaysWhatWasReplayed() {
    String html = ReportHtml.render(SampleReports.twoTasks());

    assertThat(html).contains("<h1>Quotaflow replay</h1>", "2025-11-26T06:00:00Z", "2025-11-26T06:01:00Z",
        "2025-11-26T06:10:00Z", "broker-1:9092", "12345", "--set cpu.idle_threshold=0.15");
    assertThat(html).doesNotContain("unchanged parameters");
  }

  @Test
  void withoutOverridesTheHeaderSaysUnchangedParameters() {
    ReplayReport full = SampleReports.twoTasks();
    ReplayReport report = new ReplayReport(full.range(), List.of(), full.summary(), full.tasks(), full.nodes(),
        full.pools(), null);

    String html = ReportHtml.render(report);

    assertThat(html).contains("unchanged parameters");
    assertThat(html).doesNotContain("id=\"advice\"");
  }

  @Test
  void theSummaryShowsRecordedReplayedAndTheSignedChange() {
    String html = ReportHtml.render(SampleReports.twoTasks());

    assertThat(html).contains("Reclaimed CPU-seconds</td><td class=\"num\">100.0</td><td class=\"num\">112.5"
        + "</td><td class=\"num\">+12.5</td>");
    assertThat(html).contains("Over-limit seconds</td><td class=\"num\">10.0</td><td class=\"num\">7.5"
        + "</td><td class=\"num\">-2.5</td>");
    assertThat(html).contains("Frozen task-seconds</td><td class=\"num\">60.0</td><td class=\"num\">480.0"
        + "</td><td class=\"num\">+420.0</td>");
    assertThat(html).contains("<td>cpu</td><td class=\"num\">12</td><td class=\"num\">13</td>");
    assertThat(html).contains("Exact and matching</th><td class=\"num\">1</td>");
  }

  @Test
  void theFirstCandidateWithinTheBoundIsTheAdvice() {
    String html = ReportHtml.render(SampleReports.twoTasks());

    Matcher advised = Pattern.compile("<tr class=\"advice\">(.*?)</tr>").matcher(html);
    assertThat(advised.find()).isTrue();
    assertThat(advised.group(1)).contains("--set cpu.idle_threshold=0.2", "400.0", "yes");
    assertThat(advised.find()).as("only one advice").isFalse();
    // An argument a shell would split comes quoted, ready to paste.
    assertThat(html).contains("--set &#39;cpu.note=a b&#39;");
  }

  @Test
  void theTasksTableShowsDifferencesAndExactness() {
    String html = ReportHtml.render(SampleReports.twoTasks());

    assertThat(html).contains("decision 3 at 06:02:05: effective_limit_cpu 0.75 recorded, 0.80 replayed");
    assertThat(html).contains("approximate <span class=\"reason\">");
    assertThat(html).contains("20.0 → 22.5", "identical");
  }

  @Test
  void theNodeSectionShowsPeakMemoryAndFrozenSeconds() {
    String html = ReportHtml.render(SampleReports.twoTasks());

    assertThat(html).contains("3.00 GiB", "2.50 GiB", "60.0 s", "480.0 s");
  }

  @Test
  void noFigureOrCoordinateIsNaNOrInfinite() {
    ReplayReport report = SampleReports.withUsage(SampleReports.twoTasks(), List.of(
        new Point(SampleReports.FROM_MS, 1.0), new Point(SampleReports.FROM_MS + 10_000, Double.NaN),
        new Point(SampleReports.FROM_MS + 20_000, Double.POSITIVE_INFINITY), new Point(SampleReports.FROM_MS + 30_000, 2.0)));
    ReplayReport.Summary s = report.summary();
    ReplayReport withNaN = new ReplayReport(report.range(), report.overrides(), new ReplayReport.Summary(s.tasks(),
        s.exactTasks(), s.exactTasksMatching(), s.tasksDiffering(), s.recordedCpuDecisions(), s.replayedCpuDecisions(),
        s.recordedFreezeDecisions(), s.replayedFreezeDecisions(), s.recordedPoolStates(), s.replayedPoolStates(),
        new ReplayReport.Pair(Double.NaN, 1.0), s.overLimitSeconds(), s.frozenTaskSeconds()), report.tasks(),
        report.nodes(), report.pools(), report.advice());

    String html = ReportHtml.render(withNaN);

    assertThat(html).doesNotContain("NaN", "Infinity", "∞");
    assertThat(html).contains("n/a");
  }

  @Test
  void emptySeriesAreDrawnAsNoData() {
    ReplayReport report = SampleReports.withUsage(SampleReports.twoTasks(), List.of());

    String html = ReportHtml.render(report);

    assertThat(html).contains("usage: no data", "fair share, recorded: no data");
    // The pool's fair-share chart has nothing to draw at all.
    assertThat(html).contains(">no data</text>");
    assertThat(html).doesNotContain("NaN");
  }

  @Test
  void aLongSeriesIsDrawnWithAtMost2000PointsAndKeepsItsSpike() {
    List<Point> usage = new ArrayList<>();
    long stepMs = (SampleReports.TO_MS - SampleReports.READ_FROM_MS) / 100_000;
    for (int i = 0; i < 100_000; i++) {
      usage.add(new Point(SampleReports.READ_FROM_MS + i * stepMs, i == 54_321 ? 50.0 : 1.0 + (i % 3) * 0.01));
    }

    String html = ReportHtml.render(SampleReports.withUsage(SampleReports.twoTasks(), usage));

    Matcher path = Pattern.compile("<path class=\"series\" d=\"([^\"]*)\"[^>]*><title>usage</title>").matcher(html);
    assertThat(path.find()).isTrue();
    List<Double> ys = new ArrayList<>();
    Matcher coordinate = COORDINATE.matcher(path.group(1));
    while (coordinate.find()) {
      ys.add(Double.parseDouble(coordinate.group(2)));
    }
    assertThat(ys).hasSizeGreaterThan(100).hasSizeLessThanOrEqualTo(2_000);
    // The spike (50 cores among values near 1) is drawn once, far above every other point.
    double top = ys.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    double rest = ys.stream().mapToDouble(Double::doubleValue).filter(y -> y > top).min().orElseThrow();
    assertThat(top).isLessThan(rest / 4);
    assertThat(ys.stream().filter(y -> y == top)).hasSize(1);
  }

  @Test
  void chartsHaveRoundValueTicksAndUtcTimeLabels() {
    String html = ReportHtml.render(SampleReports.twoTasks());
    int start = html.indexOf("id=\"task-1\"");
    String chart = html.substring(html.indexOf("<svg", start), html.indexOf("</svg>", start));

    List<String> texts = new ArrayList<>();
    Matcher text = Pattern.compile("<text[^>]*>([^<]*)</text>").matcher(chart);
    while (text.find()) {
      texts.add(text.group(1));
    }
    // Values 0.5 to 2 cores; the read runs 06:00 to 06:10 UTC, its last sample at 06:09:50, where the axis ends.
    assertThat(texts).contains("0", "0.5", "1", "1.5", "2", "cores", "UTC", "06:00:00", "06:02:00", "06:08:00")
        .doesNotContain("06:10:00");
  }

  @Test
  void theValueAxisHasFourOrFiveRoundTicksWhateverTheRange() {
    for (double high : new double[] {1e-6, 0.003, 0.4, 0.7, 1, 1.01, 2, 3.3, 7, 9.99, 12.5, 50, 99, 1234, 8.6e9}) {
      Ticks.ValueAxis axis = Ticks.values(0, high);

      assertThat(axis.ticks()).as("ticks up to %s", high).hasSizeBetween(4, 5);
      assertThat(axis.high()).isGreaterThanOrEqualTo(high);
      assertThat(axis.ticks().stream().map(axis::label).distinct()).as("labels up to %s", high).hasSize(axis.ticks().size());
    }
  }

  @Test
  void writeWritesTheRenderedPage() throws Exception {
    ReplayReport report = SampleReports.twoTasks();
    Path file = dir.resolve("report.html");

    ReportHtml.write(report, file);

    assertThat(Files.readString(file)).isEqualTo(ReportHtml.render(report));
  }

  private static int count(String text, String part) {
    int count = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      count++;
    }
    return count;
  }
}
