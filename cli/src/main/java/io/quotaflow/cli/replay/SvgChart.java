package io.quotaflow.cli.replay;

import io.quotaflow.cli.replay.ReplayReport.Interval;
import io.quotaflow.cli.replay.ReplayReport.Point;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One time chart as inline SVG, drawn here rather than by a script library so the report opens offline and shows
 * the same thing in every browser: a UTC time axis, a value axis with round ticks, lines, step lines (a point holds
 * until the next, the last until the end of the range), shaded intervals and a legend. Non-finite values are not
 * drawn; a chart without data says "no data". Series above {@link #MAX_DRAWN_POINTS} points are drawn downsampled.
 */
final class SvgChart {

  /** Points drawn per series at most; the JSON keeps them all. */
  static final int MAX_DRAWN_POINTS = 2_000;

  private static final int LEFT_PX = 56;
  private static final int RIGHT_PX = 28; // room for half the last time label
  private static final int TOP_PX = 6;
  private static final int BOTTOM_PX = 22;
  private static final int LEGEND_ROW_PX = 16;
  private static final int LEGEND_SWATCH_PX = 18;
  // No text measurement without a browser: legend entries are laid out at an average glyph width.
  private static final double LEGEND_CHAR_PX = 6.4;
  private static final String AXIS_COLOUR = "#888";
  private static final String GRID_COLOUR = "#e6e6e6";

  private enum Shape { LINE, STEP }

  private record Series(String name, List<Point> points, Shape shape, String colour, boolean dashed) {}

  private record Shade(String name, List<Interval> intervals, String colour) {}

  private record Marker(long tMs, String label) {}

  private final long fromMs;
  private final long toMs;
  private final int widthPx;
  private final int heightPx;
  private final String unit;
  private final List<Series> series = new ArrayList<>();
  private final List<Shade> shades = new ArrayList<>();
  private final List<Marker> markers = new ArrayList<>();

  /**
   * @param fromMs the time axis starts here
   * @param toMs and ends here
   * @param unit what the values are in, written along the value axis ("cores", "GiB")
   */
  SvgChart(long fromMs, long toMs, int widthPx, int heightPx, String unit) {
    this.fromMs = fromMs;
    this.toMs = toMs > fromMs ? toMs : fromMs + 1_000;
    this.widthPx = widthPx;
    this.heightPx = heightPx;
    this.unit = unit;
  }

  /** A series drawn point to point. */
  SvgChart line(String name, List<Point> points, String colour) {
    series.add(new Series(name, inRange(drawable(points), Shape.LINE), Shape.LINE, colour, false));
    return this;
  }

  /** A series whose each point holds until the next, solid or dashed. */
  SvgChart step(String name, List<Point> points, String colour, boolean dashed) {
    series.add(new Series(name, inRange(drawable(points), Shape.STEP), Shape.STEP, colour, dashed));
    return this;
  }

  /** Intervals shaded over the plot's full height; one still open runs to the end of the axis. */
  SvgChart shade(String name, List<Interval> intervals, String colour) {
    shades.add(new Shade(name, intervals == null ? List.of() : intervals, colour));
    return this;
  }

  /** A dashed vertical line at {@code tMs}, labelled. */
  SvgChart marker(long tMs, String label) {
    markers.add(new Marker(tMs, label));
    return this;
  }

  String render() {
    List<String> legend = legendEntries();
    List<List<Integer>> rows = legendRows(legend);
    int plotTopPx = TOP_PX + rows.size() * LEGEND_ROW_PX + 4;
    int plotWidthPx = widthPx - LEFT_PX - RIGHT_PX;
    int plotHeightPx = Math.max(20, heightPx - plotTopPx - BOTTOM_PX);
    Ticks.ValueAxis axis = valueAxis();
    Plot plot = new Plot(fromMs, toMs, plotWidthPx, plotHeightPx, axis.low(), axis.high());

    StringBuilder svg = new StringBuilder(4096);
    svg.append("<svg class=\"chart\" viewBox=\"0 0 ").append(widthPx).append(' ').append(heightPx)
        .append("\" width=\"").append(widthPx).append("\" height=\"").append(heightPx)
        .append("\" role=\"img\" font-size=\"11\">\n");
    drawLegend(svg, legend, rows);
    svg.append("<g transform=\"translate(").append(LEFT_PX).append(',').append(plotTopPx).append(")\">\n");
    drawValueAxis(svg, axis, plot);
    drawTimeAxis(svg, plot);
    for (Shade shade : shades) {
      drawShade(svg, shade, plot);
    }
    for (Marker marker : markers) {
      double x = plot.x(marker.tMs());
      svg.append("<line x1=\"").append(Plot.coordinate(x)).append("\" x2=\"").append(Plot.coordinate(x))
          .append("\" y1=\"0\" y2=\"").append(plotHeightPx).append("\" stroke=\"").append(AXIS_COLOUR)
          .append("\" stroke-dasharray=\"2 3\"><title>").append(Figures.text(marker.label())).append("</title></line>\n");
    }
    for (Series one : series) {
      drawSeries(svg, one, plot);
    }
    if (series.stream().allMatch(one -> one.points().isEmpty()) && shades.stream().allMatch(s -> s.intervals().isEmpty())) {
      svg.append("<text class=\"no-data\" x=\"").append(plotWidthPx / 2).append("\" y=\"").append(plotHeightPx / 2)
          .append("\" text-anchor=\"middle\" fill=\"").append(AXIS_COLOUR).append("\">no data</text>\n");
    }
    svg.append("<rect width=\"").append(plotWidthPx).append("\" height=\"").append(plotHeightPx)
        .append("\" fill=\"none\" stroke=\"").append(AXIS_COLOUR).append("\"/>\n");
    svg.append("</g>\n</svg>\n");
    return svg.toString();
  }

  private List<String> legendEntries() {
    List<String> entries = new ArrayList<>();
    for (Series one : series) {
      entries.add(one.points().isEmpty() ? one.name() + ": no data" : one.name());
    }
    for (Shade shade : shades) {
      entries.add(shade.intervals().isEmpty() ? shade.name() + ": none" : shade.name());
    }
    return entries;
  }

  /** The legend entries' indexes, row by row, wrapped to the chart's width. */
  private List<List<Integer>> legendRows(List<String> entries) {
    List<List<Integer>> rows = new ArrayList<>();
    List<Integer> row = new ArrayList<>();
    double usedPx = 0;
    for (int i = 0; i < entries.size(); i++) {
      double entryPx = legendEntryPx(entries.get(i));
      if (!row.isEmpty() && LEFT_PX + usedPx + entryPx > widthPx - RIGHT_PX) {
        rows.add(row);
        row = new ArrayList<>();
        usedPx = 0;
      }
      row.add(i);
      usedPx += entryPx;
    }
    if (!row.isEmpty()) {
      rows.add(row);
    }
    return rows;
  }

  private static double legendEntryPx(String entry) {
    return LEGEND_SWATCH_PX + 4 + entry.length() * LEGEND_CHAR_PX + 14;
  }

  private void drawLegend(StringBuilder svg, List<String> entries, List<List<Integer>> rows) {
    for (int r = 0; r < rows.size(); r++) {
      double x = LEFT_PX;
      int y = TOP_PX + r * LEGEND_ROW_PX + LEGEND_ROW_PX / 2;
      for (int i : rows.get(r)) {
        String swatchX = Plot.coordinate(x);
        if (i < series.size()) {
          Series one = series.get(i);
          svg.append("<line x1=\"").append(swatchX).append("\" x2=\"").append(Plot.coordinate(x + LEGEND_SWATCH_PX))
              .append("\" y1=\"").append(y).append("\" y2=\"").append(y).append("\"");
          stroke(svg, one.colour(), one.dashed());
          svg.append("/>");
        } else {
          Shade shade = shades.get(i - series.size());
          svg.append("<rect x=\"").append(swatchX).append("\" y=\"").append(y - 5).append("\" width=\"")
              .append(LEGEND_SWATCH_PX).append("\" height=\"10\" fill=\"").append(shade.colour())
              .append("\" fill-opacity=\"0.3\"/>");
        }
        svg.append("<text x=\"").append(Plot.coordinate(x + LEGEND_SWATCH_PX + 4)).append("\" y=\"").append(y + 4)
            .append("\">").append(Figures.text(entries.get(i))).append("</text>\n");
        x += legendEntryPx(entries.get(i));
      }
    }
  }

  /** Round ticks over every drawn value and zero: limits, usage, memory and volumes all start from nothing. */
  private Ticks.ValueAxis valueAxis() {
    double low = 0;
    double high = 0;
    for (Series one : series) {
      for (Point point : one.points()) {
        low = Math.min(low, point.value());
        high = Math.max(high, point.value());
      }
    }
    if (!(high > low)) {
      high = low + 1;
    }
    return Ticks.values(low, high);
  }

  private void drawValueAxis(StringBuilder svg, Ticks.ValueAxis axis, Plot plot) {
    for (double tick : axis.ticks()) {
      String y = Plot.coordinate(plot.y(tick));
      svg.append("<line x1=\"0\" x2=\"").append(plot.widthPx()).append("\" y1=\"").append(y).append("\" y2=\"")
          .append(y).append("\" stroke=\"").append(GRID_COLOUR).append("\"/>");
      svg.append("<text x=\"-4\" y=\"").append(Plot.coordinate(plot.y(tick) + 4)).append("\" text-anchor=\"end\">")
          .append(axis.label(tick)).append("</text>\n");
    }
    svg.append("<text transform=\"translate(").append(-LEFT_PX + 12).append(',').append(plot.heightPx() / 2)
        .append(") rotate(-90)\" text-anchor=\"middle\" fill=\"").append(AXIS_COLOUR).append("\">")
        .append(Figures.text(unit)).append("</text>\n");
  }

  private void drawTimeAxis(StringBuilder svg, Plot plot) {
    Ticks.TimeAxis axis = Ticks.times(fromMs, toMs);
    for (int i = 0; i < axis.ticksMs().size(); i++) {
      String x = Plot.coordinate(plot.x(axis.ticksMs().get(i)));
      svg.append("<line x1=\"").append(x).append("\" x2=\"").append(x).append("\" y1=\"0\" y2=\"")
          .append(plot.heightPx() + 3).append("\" stroke=\"").append(GRID_COLOUR).append("\"/>");
      svg.append("<text x=\"").append(x).append("\" y=\"").append(plot.heightPx() + 14)
          .append("\" text-anchor=\"middle\">").append(axis.labels().get(i)).append("</text>\n");
    }
    // In the corner under the value labels: at the right it would collide with the last time label.
    svg.append("<text x=\"").append(-LEFT_PX + 2).append("\" y=\"").append(plot.heightPx() + 14)
        .append("\" fill=\"").append(AXIS_COLOUR).append("\">UTC</text>\n");
  }

  private void drawShade(StringBuilder svg, Shade shade, Plot plot) {
    for (Interval interval : shade.intervals()) {
      long endMs = interval.toMs() == null ? toMs : interval.toMs();
      if (endMs < fromMs || interval.fromMs() > toMs) {
        continue;
      }
      double left = plot.x(interval.fromMs());
      double right = plot.x(endMs);
      // At least a pixel: a freeze of a second in a day's chart must still show.
      double width = Math.max(1, right - left);
      svg.append("<rect x=\"").append(Plot.coordinate(left)).append("\" y=\"0\" width=\"").append(Plot.coordinate(width))
          .append("\" height=\"").append(plot.heightPx()).append("\" fill=\"").append(shade.colour())
          .append("\" fill-opacity=\"0.25\"><title>").append(Figures.text(shade.name())).append(": ")
          .append(Figures.text(interval.task())).append("</title></rect>\n");
    }
  }

  private void drawSeries(StringBuilder svg, Series one, Plot plot) {
    List<Point> points = Downsampling.minMax(one.points(), MAX_DRAWN_POINTS);
    if (points.isEmpty()) {
      return;
    }
    if (one.shape() == Shape.LINE && points.size() == 1) {
      // A single sample draws no line: a dot shows it is there.
      Point only = points.get(0);
      svg.append("<circle cx=\"").append(Plot.coordinate(plot.x(only.tMs()))).append("\" cy=\"")
          .append(Plot.coordinate(plot.y(only.value()))).append("\" r=\"2\" fill=\"").append(one.colour())
          .append("\"/>\n");
      return;
    }
    StringBuilder path = new StringBuilder(points.size() * 14);
    Point first = points.get(0);
    path.append('M').append(Plot.coordinate(plot.x(first.tMs()))).append(',')
        .append(Plot.coordinate(plot.y(first.value())));
    if (one.shape() == Shape.LINE) {
      path.append(" L");
      for (int i = 1; i < points.size(); i++) {
        Point point = points.get(i);
        path.append(' ').append(Plot.coordinate(plot.x(point.tMs()))).append(',')
            .append(Plot.coordinate(plot.y(point.value())));
      }
    } else {
      for (int i = 1; i < points.size(); i++) {
        Point point = points.get(i);
        path.append(" H").append(Plot.coordinate(plot.x(point.tMs()))).append(" V")
            .append(Plot.coordinate(plot.y(point.value())));
      }
      path.append(" H").append(Plot.coordinate(plot.x(Math.max(toMs, points.get(points.size() - 1).tMs()))));
    }
    svg.append("<path class=\"series\" d=\"").append(path).append("\" fill=\"none\"");
    stroke(svg, one.colour(), one.dashed());
    svg.append("><title>").append(Figures.text(one.name())).append("</title></path>\n");
  }

  private static void stroke(StringBuilder svg, String colour, boolean dashed) {
    svg.append(" stroke=\"").append(colour).append("\" stroke-width=\"1.5\"");
    if (dashed) {
      svg.append(" stroke-dasharray=\"5 3\"");
    }
  }

  /** The points a chart can draw: finite values only, in time order. */
  private static List<Point> drawable(List<Point> points) {
    if (points == null) {
      return List.of();
    }
    List<Point> finite = new ArrayList<>(points.size());
    boolean sorted = true;
    for (Point point : points) {
      if (Double.isFinite(point.value())) {
        sorted &= finite.isEmpty() || finite.get(finite.size() - 1).tMs() <= point.tMs();
        finite.add(point);
      }
    }
    if (!sorted) {
      finite.sort(Comparator.comparingLong(Point::tMs));
    }
    return finite;
  }

  /**
   * The points that show within the time axis: those inside it, and the nearest outside on each side that a line
   * runs from or to (for steps only the one before, whose value holds into the range). With positions clamped to
   * the plot box, nothing is drawn in the margins, and the value axis fits what is seen.
   */
  private List<Point> inRange(List<Point> points, Shape shape) {
    int first = 0;
    while (first < points.size() && points.get(first).tMs() < fromMs) {
      first++;
    }
    int end = first;
    while (end < points.size() && points.get(end).tMs() <= toMs) {
      end++;
    }
    boolean before = first > 0;
    boolean after = end < points.size();
    if (shape == Shape.LINE && first == end && !(before && after)) {
      return List.of(); // a line wholly outside the axis: nothing crosses it
    }
    if (before) {
      first--;
    }
    if (shape == Shape.LINE && after) {
      end++;
    }
    return first == 0 && end == points.size() ? points : points.subList(first, end);
  }

  /** Pixel positions inside the plot box; a time outside the axis sits on its edge. */
  private record Plot(long fromMs, long toMs, int widthPx, int heightPx, double low, double high) {

    double x(long tMs) {
      double x = (double) (tMs - fromMs) * widthPx / (toMs - fromMs);
      return Math.max(0, Math.min(widthPx, x));
    }

    double y(double value) {
      return heightPx - (value - low) * heightPx / (high - low);
    }

    /** A coordinate with one decimal, written without String.format: a report can hold a million of them. */
    static String coordinate(double px) {
      long tenths = Math.round(px * 10);
      String sign = tenths < 0 ? "-" : "";
      tenths = Math.abs(tenths);
      return sign + (tenths / 10) + (tenths % 10 == 0 ? "" : "." + (tenths % 10));
    }
  }
}
