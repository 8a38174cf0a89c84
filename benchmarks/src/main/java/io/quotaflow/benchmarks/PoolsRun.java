package io.quotaflow.benchmarks;

/** What one setup of the scenario gave each pool. */
record PoolsRun(PoolsSetup setup, boolean withBestEffort, long updates, Totals totals, Timeline timeline) {

  /** Sums per simulated day, cpu-seconds. */
  static final class Totals {
    final double[] productionDemandCpuS;
    final double[] productionGrantedCpuS;
    final double[] researchSubmittedCpuS;
    final double[] researchServedCpuS;
    double bestEffortGrantedCpuS;
    double clusterGrantedCpuS;
    double researchQueueAtEndCpuS;
    double researchLongestWaitS;

    Totals(int days) {
      productionDemandCpuS = new double[days];
      productionGrantedCpuS = new double[days];
      researchSubmittedCpuS = new double[days];
      researchServedCpuS = new double[days];
    }

    int days() {
      return productionDemandCpuS.length;
    }

    double productionFraction() {
      return sum(productionGrantedCpuS) / sum(productionDemandCpuS);
    }

    double productionFraction(int day) {
      return productionGrantedCpuS[day] / productionDemandCpuS[day];
    }

    double researchFraction(int day) {
      return researchServedCpuS[day] / researchSubmittedCpuS[day];
    }

    private static double sum(double[] values) {
      double sum = 0;
      for (double value : values) {
        sum += value;
      }
      return sum;
    }
  }

  /** Share of the cluster's CPU·time the pools were granted. */
  double utilisation() {
    return totals.clusterGrantedCpuS / (setup.clusterCpu * totals.days() * PoolsScenario.DAY_S);
  }

  double bestEffortMeanCpu() {
    return totals.bestEffortGrantedCpuS / (totals.days() * PoolsScenario.DAY_S);
  }
}
