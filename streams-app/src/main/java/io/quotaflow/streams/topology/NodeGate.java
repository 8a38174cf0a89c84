package io.quotaflow.streams.topology;

import io.quotaflow.streams.engine.memory.PeakGate;

/**
 * A node's gate as its processors use it. The gate runs on the node's own clock (its samples'
 * ts_ms), so specs and configs act at the gate's time and its decisions do not depend on which
 * other nodes share the partition; {@code clockRecordTsMs}, the record timestamp that goes with the
 * gate's time, lets the punctuator tell from the partition's stream time that the node fell silent.
 * The usage totals of its live tasks go with it ({@link NodeUsage}), as mutable as the gate itself.
 */
record NodeGate(PeakGate gate, long clockRecordTsMs, NodeUsage usage) {

  /** A gate with no usage totals yet. */
  NodeGate(PeakGate gate, long clockRecordTsMs) {
    this(gate, clockRecordTsMs, new NodeUsage());
  }

  /** The time specs and configs act at: the gate's own (before its first sample there is nothing to decide). */
  long nowMs() {
    return gate.streamTimeMs();
  }

  /** After one of the node's samples, whose record carries {@code recordTsMs}. */
  NodeGate sampled(long recordTsMs) {
    return new NodeGate(gate, Math.max(clockRecordTsMs, recordTsMs), usage);
  }

  /** The gate moved on to the partition's stream time {@code recordTsMs} without a sample (a silent node). */
  NodeGate advancedTo(long recordTsMs) {
    return new NodeGate(gate, recordTsMs, usage);
  }
}
