package io.quotaflow.streams.engine.pools;

/** A pool's integral guarantee kind, as YTsaurus's {@code integral_guarantees.guarantee_type}. */
public enum GuaranteeType {
  /** Strong guarantee and weight only; flow and burst values are ignored. */
  NONE,
  /** Spends its volume first, up to {@code burst_guarantee_cpu} at once. */
  BURST,
  /** Shares what burst and strong guarantees leave, in proportion to volume, up to M times its flow. */
  RELAXED
}
