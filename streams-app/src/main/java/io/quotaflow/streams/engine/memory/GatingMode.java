package io.quotaflow.streams.engine.memory;

/** How a node gates memory peaks (ClusterConfig {@code peak_gating_mode}). */
public enum GatingMode {
  /** No gating: nothing is ever frozen. */
  OFF,
  /** The seed's rule: at most {@code max_concurrent_peaks} running tasks hold a peak slot. */
  COUNT,
  /** Admit peaks while the holders' peaks plus everyone else's usage fit in node memory less headroom. */
  BUDGET
}
