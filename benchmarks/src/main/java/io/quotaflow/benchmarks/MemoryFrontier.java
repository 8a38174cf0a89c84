package io.quotaflow.benchmarks;

import io.quotaflow.streams.engine.memory.GatingMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Issue 21's search of admission rules: per rule, the worst node memory over many seeds against the mean slowdown,
 * and which rules no other rule beats on both (the frontier).
 */
final class MemoryFrontier {

  /** The slowdown the issue accepts for a bound that holds on every seed. */
  static final double SLOWDOWN_GOAL = 1.3;

  /**
   * One admission rule and what it gave.
   *
   * @param mode BUDGET, or COUNT as the reference
   * @param reserveFraction BUDGET's reserve fraction f
   * @param headroomMib BUDGET's memory headroom
   */
  record Point(GatingMode mode, double reserveFraction, long headroomMib, MemoryFigures figures) {

    String rule() {
      return mode == GatingMode.COUNT ? "COUNT"
          : String.format(Locale.ROOT, "BUDGET f=%.2f headroom %d MB", reserveFraction, headroomMib);
    }

    /** Neither more memory nor more slowdown than {@code other}, and less of one. */
    boolean dominates(Point other) {
      long mine = figures.maxMib();
      long theirs = other.figures.maxMib();
      double slow = figures.meanSlowdown();
      double theirSlow = other.figures.meanSlowdown();
      return mine <= theirs && slow <= theirSlow && (mine < theirs || slow < theirSlow);
    }

    boolean meetsGoal(long budgetMib) {
      return figures.maxMib() <= budgetMib && figures.meanSlowdown() <= SLOWDOWN_GOAL;
    }
  }

  private MemoryFrontier() {}

  /**
   * The points no other point dominates, by mean slowdown (then memory); of points with the same figures (rules
   * that end up admitting alike), only the first.
   */
  static List<Point> frontier(List<Point> points) {
    List<Point> out = new ArrayList<>();
    for (Point p : points) {
      boolean same = out.stream().anyMatch(q -> q.figures().maxMib() == p.figures().maxMib()
          && q.figures().meanSlowdown() == p.figures().meanSlowdown());
      if (!same && points.stream().noneMatch(q -> q.dominates(p))) {
        out.add(p);
      }
    }
    out.sort(Comparator.comparingDouble((Point p) -> p.figures().meanSlowdown())
        .thenComparingLong(p -> p.figures().maxMib()));
    return out;
  }

  /** The BUDGET rule with the least mean slowdown among those within the budget and the slowdown goal; null if none. */
  static Point best(List<Point> points, long budgetMib) {
    return points.stream()
        .filter(p -> p.mode() == GatingMode.BUDGET && p.meetsGoal(budgetMib))
        .min(Comparator.comparingDouble((Point p) -> p.figures().meanSlowdown())
            .thenComparingLong(p -> p.figures().maxMib()))
        .orElse(null);
  }

  /** The frontier as a line, the budget as a dashed line and the slowdown goal as a dashed vertical line. */
  static void writeChart(Path file, String title, String subtitle, List<Point> frontier, long budgetMib)
      throws IOException {
    double[] extraSlowdown = frontier.stream().mapToDouble(p -> p.figures().meanSlowdown() - 1).toArray();
    double[] worst = frontier.stream().mapToDouble(p -> p.figures().maxMib()).toArray();
    double[] budget = frontier.stream().mapToDouble(p -> budgetMib).toArray();
    double[] withGoal = new double[extraSlowdown.length + 1];
    System.arraycopy(extraSlowdown, 0, withGoal, 0, extraSlowdown.length);
    withGoal[extraSlowdown.length] = SLOWDOWN_GOAL - 1;
    SvgChart.XAxis quantity = SvgChart.XAxis.quantity(withGoal, "");
    // The axis starts at no slowdown (1×): x is the slowdown above it, labelled as the slowdown itself.
    SvgChart.XAxis axis = new SvgChart.XAxis(extraSlowdown, quantity.span(), quantity.step(),
        x -> String.format(Locale.ROOT, "%.2f×", 1 + x), true);
    double floor = Math.min(budgetMib, frontier.stream().mapToLong(p -> p.figures().maxMib()).min().orElse(budgetMib));
    SvgChart.Panel panel = new SvgChart.Panel("Worst node memory over all seeds against mean slowdown", "MB",
        List.of(new SvgChart.Series("frontier (rules no other rule beats on both)", "#2471a3", null, worst),
            new SvgChart.Series(String.format(Locale.ROOT, "budget %d MB", budgetMib), "#000", "6,4", budget)),
        floor - 200, List.of(new SvgChart.XMark(SLOWDOWN_GOAL - 1,
            String.format(Locale.ROOT, "goal %.1f×", SLOWDOWN_GOAL))));
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, SvgChart.render(title, subtitle, axis, List.of(panel)), StandardCharsets.UTF_8);
  }
}
