package io.quotaflow.streams.engine.pools;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Proportional sharing with caps: the largest level x such that {@code Σ min(cap_i, x·weight_i)}
 * fits in a budget, solved exactly. YTsaurus finds the same level by a binary search over its
 * fair-share functions; with one resource they are piecewise linear, so the breakpoints give it
 * directly and the result does not depend on a search tolerance.
 */
final class WaterFill {

  private WaterFill() {}

  /**
   * @param caps per entry, the most it can take (≥ 0)
   * @param weights per entry (> 0 to take part; an entry with weight ≤ 0 gets nothing)
   * @param budget what there is to share
   * @return per entry, {@code min(cap_i, x·weight_i)} at the largest x whose total fits the budget
   */
  static double[] fill(double[] caps, double[] weights, double budget) {
    int n = caps.length;
    double[] shares = new double[n];
    if (!(budget > 0)) {
      return shares;
    }
    double capsSum = 0;
    double weightSum = 0;
    Integer[] order = new Integer[n];
    int count = 0;
    for (int i = 0; i < n; i++) {
      if (weights[i] > 0 && caps[i] > 0) {
        capsSum += caps[i];
        weightSum += weights[i];
        order[count++] = i;
      }
    }
    if (capsSum <= budget) {
      for (int k = 0; k < count; k++) {
        shares[order[k]] = caps[order[k]];
      }
      return shares;
    }
    Integer[] active = Arrays.copyOf(order, count);
    // Entries that saturate at the lowest level come first; once one does not, none after it does.
    Arrays.sort(active, Comparator.comparingDouble((Integer i) -> caps[i] / weights[i]).thenComparingInt(i -> i));
    double remaining = budget;
    int k = 0;
    while (k < count) {
      int i = active[k];
      double level = remaining / weightSum;
      if (caps[i] / weights[i] > level) {
        break;
      }
      shares[i] = caps[i];
      remaining -= caps[i];
      weightSum -= weights[i];
      k++;
    }
    double level = weightSum > 0 ? Math.max(remaining, 0) / weightSum : 0;
    for (; k < count; k++) {
      int i = active[k];
      shares[i] = Math.min(caps[i], level * weights[i]);
    }
    return shares;
  }
}
