package io.quotaflow.streams.topology;

import io.quotaflow.streams.engine.memory.PeakGate;

/**
 * A node's gate as its processors use it. The gate runs on the node's own clock (its samples'
 * ts_ms), so specs and configs act at the gate's time and its decisions do not depend on which
 * other nodes share the partition; {@code clockRecordTsMs}, the record timestamp that goes with the
 * gate's time, lets the punctuator tell from the partition's stream time that the node fell silent.
 */
record NodeGate(PeakGate gate, long clockRecordTsMs) {

  /** The time specs and configs act at: the gate's own (before its first sample there is nothing to decide). */
  long nowMs() {
    return gate.streamTimeMs();
  }

  /** After one of the node's samples, whose record carries {@code recordTsMs}. */
  NodeGate sampled(long recordTsMs) {
    return new NodeGate(gate, Math.max(clockRecordTsMs, recordTsMs));
  }
}
