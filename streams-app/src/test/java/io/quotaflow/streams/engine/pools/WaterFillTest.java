package io.quotaflow.streams.engine.pools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class WaterFillTest {

  @Test
  void everyoneGetsTheirCapWhenTheBudgetCoversAll() {
    assertThat(WaterFill.fill(new double[] {0.1, 0.2}, new double[] {1, 1}, 0.5)).containsExactly(0.1, 0.2);
  }

  @Test
  void entrySaturatingEarlyLeavesItsRestToTheOthers() {
    double[] shares = WaterFill.fill(new double[] {0.1, 1.0, 1.0}, new double[] {1, 1, 2}, 1.0);

    assertThat(shares[0]).isCloseTo(0.1, within(1e-12));
    assertThat(shares[1]).isCloseTo(0.3, within(1e-12));
    assertThat(shares[2]).isCloseTo(0.6, within(1e-12));
  }

  @Test
  void nothingToShareGivesNothing() {
    assertThat(WaterFill.fill(new double[] {1}, new double[] {1}, 0)).containsExactly(0.0);
    assertThat(WaterFill.fill(new double[] {1}, new double[] {0}, 1)).containsExactly(0.0);
  }

  @Property(tries = 300)
  void sharesFitTheBudgetAndTheCapsAndFollowTheWeights(
      @ForAll @Size(min = 1, max = 8) List<@DoubleRange(min = 0, max = 1) Double> capList,
      @ForAll @DoubleRange(min = 0, max = 2) double budget) {
    double[] caps = capList.stream().mapToDouble(Double::doubleValue).toArray();
    double[] weights = new double[caps.length];
    for (int i = 0; i < caps.length; i++) {
      weights[i] = 0.5 + (i % 3);
    }
    double[] shares = WaterFill.fill(caps, weights, budget);

    double total = 0;
    double capsTotal = 0;
    for (int i = 0; i < caps.length; i++) {
      assertThat(shares[i]).isBetween(0.0, caps[i]);
      total += shares[i];
      capsTotal += caps[i];
    }
    assertThat(total).isLessThanOrEqualTo(budget + 1e-12);
    // Work-conserving: either everyone is capped or the budget is used up.
    assertThat(total).isCloseTo(Math.min(budget, capsTotal), within(1e-9));
    // Uncapped entries stand level: their share per weight is the same, and no capped entry's is above it.
    double level = -1;
    for (int i = 0; i < caps.length; i++) {
      if (shares[i] < caps[i] - 1e-12) {
        if (level < 0) {
          level = shares[i] / weights[i];
        }
        assertThat(shares[i] / weights[i]).isCloseTo(level, within(1e-9));
      }
    }
    for (int i = 0; level >= 0 && i < caps.length; i++) {
      assertThat(shares[i] / weights[i]).isLessThanOrEqualTo(level + 1e-9);
    }
  }
}
