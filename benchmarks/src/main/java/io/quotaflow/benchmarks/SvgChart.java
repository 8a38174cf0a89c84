package io.quotaflow.benchmarks;

import io.quotaflow.process.ops.Markup;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * A line chart of stacked panels sharing one x axis (a time axis in hours, or any other
 * quantity), written as plain SVG (no chart library: the benchmark adds no dependency).
 */
final class SvgChart {

  /** One line; {@code dash} is an SVG dash array, or null for a solid line. */
  record Series(String label, String color, String dash, double[] values) {}

  /**
   * @param yFrom the y axis starts at the nice step at or below this (0 for most charts); values below it are
   *     drawn at the bottom
   * @param xMarks vertical lines marking a value on the x axis (a target, a limit)
   */
  record Panel(String title, String unit, List<Series> series, double yFrom, List<XMark> xMarks) {
    Panel(String title, String unit, List<Series> series) {
      this(title, unit, series, 0, List.of());
    }
  }

  /** A dashed vertical line at {@code x}, labelled at its top. */
  record XMark(double x, String label) {}

  /**
   * The x axis: every point's position from 0 to {@code span}, and the ticks drawn every {@code step} with
   * their text; {@code markers} draws a dot on every point (for a few measured points, not a time series).
   */
  record XAxis(double[] values, double span, double step, DoubleFunction<String> tickText, boolean markers) {

    /** Hours from the start; runs of minutes read in minutes, of hours and days in hours. */
    static XAxis hours(double[] hours) {
      double spanHours = hours.length == 0 ? 1 : hours[hours.length - 1];
      boolean inMinutes = spanHours < 2;
      double stepHours = inMinutes ? niceStep(spanHours * 60 / 6) / 60
          : spanHours <= 48 ? 6 : spanHours <= 96 ? 12 : 24;
      return new XAxis(hours, spanHours, stepHours,
          h -> inMinutes ? label(Math.rint(h * 600) / 10) + " min" : label(h) + " h", false);
    }

    /** A quantity from 0 to a round number above its largest value, with a dot on every point. */
    static XAxis quantity(double[] values, String unit) {
      double max = 0;
      for (double value : values) {
        max = Math.max(max, value);
      }
      double step = niceStep(max / 5);
      double span = step * Math.max(1, Math.ceil(max / step - 1e-9));
      return new XAxis(values, span, step, x -> label(x) + unit, true);
    }
  }

  private static final int WIDTH = 960;
  private static final int LEFT = 84;
  private static final int RIGHT = 24;
  private static final int TITLE_HEIGHT = 56;
  private static final int PANEL_HEIGHT = 190;
  private static final int PANEL_GAP = 74;
  private static final int MAX_Y_TICKS = 5;

  private SvgChart() {}

  /**
   * @param hours the time of every point, hours from the start
   */
  static String render(String title, String subtitle, double[] hours, List<Panel> panels) {
    return render(title, subtitle, XAxis.hours(hours), panels);
  }

  static String render(String title, String subtitle, XAxis x, List<Panel> panels) {
    int height = TITLE_HEIGHT + panels.size() * (PANEL_HEIGHT + PANEL_GAP);
    StringBuilder svg = new StringBuilder();
    svg.append(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
            + " font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, height, WIDTH, height));
    svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, height));
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"16\" font-weight=\"bold\">%s</text>%n",
        LEFT, Markup.escape(title)));
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"40\" fill=\"#555\">%s</text>%n", LEFT, Markup.escape(subtitle)));
    int top = TITLE_HEIGHT + 28;
    for (Panel panel : panels) {
      renderPanel(svg, panel, x, top);
      top += PANEL_HEIGHT + PANEL_GAP;
    }
    svg.append("</svg>\n");
    return svg.toString();
  }

  private static void renderPanel(StringBuilder svg, Panel panel, XAxis axis, int top) {
    int plotWidth = WIDTH - LEFT - RIGHT;
    int bottom = top + PANEL_HEIGHT;
    double yStep = niceStep((maxOf(panel.series()) - panel.yFrom()) / MAX_Y_TICKS);
    double yMin = yStep * Math.floor(panel.yFrom() / yStep + 1e-9);
    int yTicks = (int) Math.max(1, Math.ceil((maxOf(panel.series()) - yMin) / yStep - 1e-9));
    double yMax = yMin + yStep * yTicks;
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>%n",
        LEFT, top - 10, Markup.escape(panel.title())));
    // Horizontal grid and y labels.
    for (int i = 0; i <= yTicks; i++) {
      double value = yMin + yStep * i;
      double y = bottom - (double) PANEL_HEIGHT * i / yTicks;
      svg.append(String.format(Locale.ROOT,
          "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n", LEFT, y, LEFT + plotWidth, y));
      svg.append(String.format(Locale.ROOT,
          "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#333\">%s</text>%n", LEFT - 6, y + 4, label(value)));
    }
    svg.append(String.format(Locale.ROOT,
        "<text transform=\"translate(%d,%d) rotate(-90)\" text-anchor=\"middle\" fill=\"#333\">%s</text>%n",
        16, top + PANEL_HEIGHT / 2, Markup.escape(panel.unit())));
    // X axis.
    for (double h = 0; h <= axis.span() + 1e-9; h += axis.step()) {
      double x = LEFT + plotWidth * h / axis.span();
      svg.append(String.format(Locale.ROOT,
          "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>%n", x, top, x, bottom));
      svg.append(String.format(Locale.ROOT,
          "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#333\">%s</text>%n", x, bottom + 16,
          Markup.escape(axis.tickText().apply(h))));
    }
    svg.append(String.format(Locale.ROOT,
        "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>%n",
        LEFT, top, plotWidth, PANEL_HEIGHT));
    for (XMark mark : panel.xMarks()) {
      double x = LEFT + plotWidth * mark.x() / axis.span();
      svg.append(String.format(Locale.ROOT,
          "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\" stroke-dasharray=\"6,4\"/>%n",
          x, top, x, bottom));
      svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\">%s</text>%n", x + 4, top + 14,
          Markup.escape(mark.label())));
    }
    // Lines, then the legend under the axis so it never hides a line.
    int legendX = LEFT;
    for (Series series : panel.series()) {
      StringBuilder points = new StringBuilder();
      StringBuilder dots = new StringBuilder();
      for (int i = 0; i < axis.values().length && i < series.values().length; i++) {
        double x = LEFT + plotWidth * axis.values()[i] / axis.span();
        double clamped = Math.max(yMin, Math.min(series.values()[i], yMax));
        double y = bottom - PANEL_HEIGHT * (clamped - yMin) / (yMax - yMin);
        points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
        if (axis.markers()) {
          dots.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>%n",
              x, y, series.color()));
        }
      }
      svg.append(String.format(Locale.ROOT,
          "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"%s points=\"%s\"/>%n",
          series.color(), dashAttribute(series), points.toString().trim()));
      svg.append(dots);
      int legendY = bottom + 36;
      svg.append(String.format(Locale.ROOT,
          "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>%n",
          legendX, legendY - 4, legendX + 24, legendY - 4, series.color(), dashAttribute(series)));
      svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n",
          legendX + 30, legendY, Markup.escape(series.label())));
      legendX += 44 + 7 * series.label().length();
    }
  }

  private static String dashAttribute(Series series) {
    return series.dash() == null ? "" : " stroke-dasharray=\"" + series.dash() + "\"";
  }

  private static double maxOf(List<Series> series) {
    double max = 0;
    for (Series s : series) {
      for (double value : s.values()) {
        max = Math.max(max, value);
      }
    }
    return max;
  }

  /** The smallest 1, 2, 2.5 or 5 times a power of ten that is at least {@code value}, so ticks read well. */
  static double niceStep(double value) {
    if (!(value > 0)) {
      return 1;
    }
    double magnitude = Math.pow(10, Math.floor(Math.log10(value)));
    for (double step : new double[] {1, 2, 2.5, 5, 10}) {
      if (step * magnitude >= value * (1 - 1e-12)) {
        return step * magnitude;
      }
    }
    return 10 * magnitude;
  }

  private static String label(double value) {
    if (value == Math.rint(value)) {
      return String.format(Locale.ROOT, "%,d", (long) value);
    }
    return String.format(Locale.ROOT, "%,.1f", value);
  }
}
