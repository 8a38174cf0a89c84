package io.quotaflow.cli;

import java.util.ArrayList;
import java.util.List;

/** What a polled kernel file went through: every reading that differs from the one before it. */
final class Readings {

  private final List<Integer> steps = new ArrayList<>();

  /** Records {@code value} when it differs from the last reading; returns it. */
  int add(int value) {
    if (steps.isEmpty() || steps.get(steps.size() - 1) != value) {
      steps.add(value);
    }
    return value;
  }

  List<Integer> steps() {
    return List.copyOf(steps);
  }

  /** The steps after a leading {@code initial} value (the kernel's default before the first write). */
  List<Integer> stepsAfter(int initial) {
    return steps.isEmpty() || steps.get(0) != initial ? steps() : List.copyOf(steps.subList(1, steps.size()));
  }

  /**
   * The cpu.shares an idle task walks through, 1000 per CPU of soft limit: ×{@code coefficient}
   * a step from {@code hard} down to {@code floor}, as the job CPU monitor computes them.
   */
  static List<Integer> sharesLadder(double hard, double coefficient, double floor) {
    List<Integer> ladder = new ArrayList<>();
    for (double soft = hard; ; soft = Math.max(soft * coefficient, floor)) {
      ladder.add((int) (1000 * soft));
      if (soft == floor) {
        return ladder;
      }
    }
  }
}
