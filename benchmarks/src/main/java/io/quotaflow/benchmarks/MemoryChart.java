package io.quotaflow.benchmarks;

import io.quotaflow.process.ops.Markup;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Node memory over time, one panel per mode, as plain SVG written by hand (no charting dependency): the seed's
 * figures 6 (no gating) and 7 (one peak at a time) side by side with BUDGET.
 */
final class MemoryChart {

  private static final int WIDTH = 960;
  private static final int PANEL_HEIGHT = 210;
  private static final int LEFT = 70;
  private static final int RIGHT = 20;
  private static final int TOP = 50;
  private static final int GAP = 45;
  private static final String[] COLOURS = {"#c0392b", "#2471a3", "#1e8449", "#7d3c98"};

  private MemoryChart() {}

  static void write(Path file, String title, List<MemoryRun> runs, long budgetMib) throws IOException {
    int maxTicks = runs.stream().mapToInt(MemoryRun::ticks).max().orElse(1);
    long top = runs.stream().mapToLong(MemoryRun::maxMib).max().orElse(budgetMib);
    long yMaxMib = (Math.max(top, budgetMib) / 1000 + 1) * 1000;
    int plotWidth = WIDTH - LEFT - RIGHT;
    int height = TOP + runs.size() * (PANEL_HEIGHT + GAP) + 10;
    StringBuilder svg = new StringBuilder();
    svg.append(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            + "font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, height, WIDTH, height));
    svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, height));
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"24\" font-size=\"15\" font-weight=\"bold\">%s</text>%n",
        LEFT, Markup.escape(title)));
    for (int p = 0; p < runs.size(); p++) {
      MemoryRun run = runs.get(p);
      int y0 = TOP + p * (PANEL_HEIGHT + GAP);
      int yBottom = y0 + PANEL_HEIGHT;
      svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>"
              + "<text x=\"%d\" y=\"%d\" fill=\"#555\">max %d MB, last task done at tick %d, %d freezes</text>%n",
          LEFT, y0 - 8, run.mode(), LEFT + 70, y0 - 8, run.maxMib(), run.ticks(), run.freezes()));
      for (long mb = 0; mb <= yMaxMib; mb += 1000) {
        double y = yBottom - (double) mb / yMaxMib * PANEL_HEIGHT;
        svg.append(String.format(Locale.ROOT,
            "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e5e5e5\"/>"
                + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%d</text>%n",
            LEFT, y, LEFT + plotWidth, y, LEFT - 6, y + 4, mb));
      }
      int xStep = maxTicks > 2000 ? 500 : 250;
      for (int t = 0; t <= maxTicks; t += xStep) {
        double x = LEFT + (double) t / maxTicks * plotWidth;
        svg.append(String.format(Locale.ROOT,
            "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#999\"/>"
                + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%d</text>%n",
            x, yBottom, x, yBottom + 4, x, yBottom + 17, t));
      }
      double yBudget = yBottom - (double) budgetMib / yMaxMib * PANEL_HEIGHT;
      svg.append(String.format(Locale.ROOT,
          "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#000\" stroke-dasharray=\"6,4\"/>"
              + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">budget %d MB</text>%n",
          LEFT, yBudget, LEFT + plotWidth, yBudget, LEFT + plotWidth, yBudget - 4, budgetMib));
      svg.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1\" points=\"",
          COLOURS[p % COLOURS.length]));
      long[] series = run.nodeMemoryMib();
      for (int t = 0; t < series.length; t++) {
        double x = LEFT + (double) t / maxTicks * plotWidth;
        double y = yBottom - (double) series[t] / yMaxMib * PANEL_HEIGHT;
        svg.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
      }
      svg.append("\"/>\n");
      svg.append(String.format(Locale.ROOT,
          "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>%n",
          LEFT, y0, plotWidth, PANEL_HEIGHT));
    }
    int yLast = TOP + runs.size() * (PANEL_HEIGHT + GAP) - GAP + 32;
    svg.append(String.format(Locale.ROOT,
        "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">tick (one sample each); node memory in MB</text>%n",
        LEFT + plotWidth / 2, yLast));
    svg.append("</svg>\n");
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, svg, StandardCharsets.UTF_8);
  }
}
