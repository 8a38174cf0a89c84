package io.quotaflow.cli.demo;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * How the kernel's CFS splits a node's CPUs between groups that all want some, reduced to its
 * steady state: each group gets at most what it asks for (its demand, already capped by its
 * quota), and under contention the CPUs are split in proportion to {@code cpu.shares}, what a
 * satisfied group leaves over going to the others by the same rule (water-filling).
 */
public final class CpuShareSplit {

  /** One group's claim: cores it would burn if alone, and its {@code cpu.shares}. */
  public record Claim(double demandCores, long shares) {
    public Claim {
      if (!(demandCores >= 0) || shares <= 0) {
        throw new IllegalArgumentException("demand must be >= 0 and shares > 0: " + demandCores + ", " + shares);
      }
    }
  }

  private CpuShareSplit() {}

  /** The cores each claim gets out of {@code capacityCores}, in the order of {@code claims}. */
  public static double[] split(double capacityCores, List<Claim> claims) {
    double[] granted = new double[claims.size()];
    List<Integer> waiting = new ArrayList<>();
    for (int i = 0; i < claims.size(); i++) {
      waiting.add(i);
    }
    // Those asking least per share are satisfied first; then the rest share what is left.
    waiting.sort(Comparator.comparingDouble(i -> claims.get(i).demandCores() / claims.get(i).shares()));
    double left = capacityCores;
    long sharesLeft = claims.stream().mapToLong(Claim::shares).sum();
    for (int i : waiting) {
      Claim claim = claims.get(i);
      double fair = left * claim.shares() / sharesLeft;
      granted[i] = Math.min(claim.demandCores(), fair);
      left -= granted[i];
      sharesLeft -= claim.shares();
    }
    return granted;
  }
}
