package io.quotaflow.cli.replay;

import io.quotaflow.cli.replay.ReplayReport.Point;
import java.util.ArrayList;
import java.util.List;

/**
 * Thins a long series for drawing. A chart 900 pixels wide cannot show more than a few points per pixel, and a
 * report with hundreds of tasks would otherwise weigh hundreds of megabytes; the JSON keeps every point. Each
 * time bucket keeps its lowest and its highest point, so a one-sample spike survives where averaging or picking
 * every n-th point would lose it.
 */
final class Downsampling {

  private Downsampling() {}

  /**
   * At most {@code maxPoints} of {@code points} (sorted by time), in time order: the min and the max of each of
   * {@code maxPoints / 2} equal time buckets. A series already short enough comes back as it is.
   */
  static List<Point> minMax(List<Point> points, int maxPoints) {
    if (maxPoints < 2) {
      throw new IllegalArgumentException("maxPoints must be at least 2, got " + maxPoints);
    }
    if (points.size() <= maxPoints) {
      return points;
    }
    int buckets = maxPoints / 2;
    long firstMs = points.get(0).tMs();
    long spanMs = points.get(points.size() - 1).tMs() - firstMs + 1;
    List<Point> kept = new ArrayList<>(maxPoints);
    int bucket = -1;
    int minIndex = -1;
    int maxIndex = -1;
    for (int i = 0; i < points.size(); i++) {
      Point point = points.get(i);
      // A bucket index from the time, not the position: irregular sampling keeps its shape.
      int pointBucket = (int) Math.min(buckets - 1, (point.tMs() - firstMs) * buckets / spanMs);
      if (pointBucket != bucket) {
        keep(points, minIndex, maxIndex, kept);
        bucket = pointBucket;
        minIndex = i;
        maxIndex = i;
      } else if (point.value() < points.get(minIndex).value()) {
        minIndex = i;
      } else if (point.value() > points.get(maxIndex).value()) {
        maxIndex = i;
      }
    }
    keep(points, minIndex, maxIndex, kept);
    return kept;
  }

  private static void keep(List<Point> points, int minIndex, int maxIndex, List<Point> kept) {
    if (minIndex < 0) {
      return;
    }
    kept.add(points.get(Math.min(minIndex, maxIndex)));
    if (minIndex != maxIndex) {
      kept.add(points.get(Math.max(minIndex, maxIndex)));
    }
  }
}
