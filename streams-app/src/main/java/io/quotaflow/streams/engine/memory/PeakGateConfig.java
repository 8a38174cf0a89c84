package io.quotaflow.streams.engine.memory;

import java.util.Objects;

/**
 * Everything one node's gate needs: the peak-gating fields of {@code ClusterConfig} and the node's memory total
 * from {@code NodeStatus}.
 *
 * @param memoryTotalBytes node memory; 0 when not known yet, in which case BUDGET admits one holder at a time
 * @param queueWaitAlertMs a queue whose head has waited longer than this raises the wait alert
 * @param budgetReserveFraction BUDGET only, f in [0, 1]: every other live task that does not hold counts at
 *     {@code usage + f · max(0, threshold − usage)}, a share of the growth it may still make before the gate or the
 *     reflex sees it cross its threshold. 0 is DESIGN §4's rule (current usage); 1 reserves every other task's
 *     threshold. Not a {@code ClusterConfig} field (yet): only {@code bench memory} sets it.
 */
public record PeakGateConfig(
    GatingMode mode,
    double peakThresholdRatio,
    double peakReleaseRatio,
    int maxConcurrentPeaks,
    long memoryTotalBytes,
    long memoryHeadroomBytes,
    long freezeLeaseMs,
    long taskIdleTimeoutMs,
    long queueWaitAlertMs,
    double budgetReserveFraction) {

  public PeakGateConfig {
    Objects.requireNonNull(mode, "mode");
    if (!(peakThresholdRatio > 0) || Double.isInfinite(peakThresholdRatio)) {
      throw new IllegalArgumentException("peak_threshold_ratio must be positive and finite: " + peakThresholdRatio);
    }
    if (!(peakReleaseRatio > 0) || peakReleaseRatio > peakThresholdRatio) {
      // Release above threshold would let a holder give up its slot while still approaching its peak.
      throw new IllegalArgumentException(
          "peak_release_ratio must be positive and at most peak_threshold_ratio: " + peakReleaseRatio);
    }
    if (maxConcurrentPeaks < 1) {
      throw new IllegalArgumentException("max_concurrent_peaks must be at least 1: " + maxConcurrentPeaks);
    }
    if (memoryTotalBytes < 0 || memoryHeadroomBytes < 0) {
      throw new IllegalArgumentException("memory total and headroom must not be negative");
    }
    if (freezeLeaseMs < 3 || taskIdleTimeoutMs <= 0 || queueWaitAlertMs <= 0) {
      throw new IllegalArgumentException("lease, idle timeout and wait alert must be positive");
    }
    if (!(budgetReserveFraction >= 0 && budgetReserveFraction <= 1)) {
      throw new IllegalArgumentException("budget reserve fraction must be in [0, 1]: " + budgetReserveFraction);
    }
  }

  /** DESIGN §4's BUDGET rule: other tasks count at their current usage (reserve fraction 0). */
  public PeakGateConfig(GatingMode mode, double peakThresholdRatio, double peakReleaseRatio, int maxConcurrentPeaks,
      long memoryTotalBytes, long memoryHeadroomBytes, long freezeLeaseMs, long taskIdleTimeoutMs,
      long queueWaitAlertMs) {
    this(mode, peakThresholdRatio, peakReleaseRatio, maxConcurrentPeaks, memoryTotalBytes, memoryHeadroomBytes,
        freezeLeaseMs, taskIdleTimeoutMs, queueWaitAlertMs, 0);
  }

  /** ClusterConfig's defaults (COUNT, 1.1, 1.05, one slot, 180 s lease, 60 s idle, 10 min alert) on a node. */
  public static PeakGateConfig defaults(long memoryTotalBytes) {
    return new PeakGateConfig(GatingMode.COUNT, 1.1, 1.05, 1, memoryTotalBytes, 0, 180_000, 60_000, 600_000);
  }

  public PeakGateConfig withMode(GatingMode newMode) {
    return new PeakGateConfig(newMode, peakThresholdRatio, peakReleaseRatio, maxConcurrentPeaks, memoryTotalBytes,
        memoryHeadroomBytes, freezeLeaseMs, taskIdleTimeoutMs, queueWaitAlertMs,
        budgetReserveFraction);
  }

  public PeakGateConfig withMaxConcurrentPeaks(int peaks) {
    return new PeakGateConfig(mode, peakThresholdRatio, peakReleaseRatio, peaks, memoryTotalBytes,
        memoryHeadroomBytes, freezeLeaseMs, taskIdleTimeoutMs, queueWaitAlertMs,
        budgetReserveFraction);
  }

  public PeakGateConfig withHeadroomBytes(long headroomBytes) {
    return new PeakGateConfig(mode, peakThresholdRatio, peakReleaseRatio, maxConcurrentPeaks, memoryTotalBytes,
        headroomBytes, freezeLeaseMs, taskIdleTimeoutMs, queueWaitAlertMs,
        budgetReserveFraction);
  }

  public PeakGateConfig withIdleTimeoutMs(long idleMs) {
    return new PeakGateConfig(mode, peakThresholdRatio, peakReleaseRatio, maxConcurrentPeaks, memoryTotalBytes,
        memoryHeadroomBytes, freezeLeaseMs, idleMs, queueWaitAlertMs,
        budgetReserveFraction);
  }

  public PeakGateConfig withBudgetReserveFraction(double fraction) {
    return new PeakGateConfig(mode, peakThresholdRatio, peakReleaseRatio, maxConcurrentPeaks, memoryTotalBytes,
        memoryHeadroomBytes, freezeLeaseMs, taskIdleTimeoutMs, queueWaitAlertMs, fraction);
  }

  /** BUDGET's limit: node memory less headroom; 0 or less means no budget is known. */
  public long budgetBytes() {
    return memoryTotalBytes - memoryHeadroomBytes;
  }

  /**
   * A waiting task's FREEZE is renewed once a third of the lease has passed, so renewals stay at most half a lease
   * apart as long as the node sends some input at least every sixth of a lease.
   */
  long renewAfterMs() {
    return freezeLeaseMs / 3;
  }
}
