package io.quotaflow.collector;

/**
 * A record encoded and waiting to be published: the buffer holds these, already in the wire
 * format, so a buffered sample costs ~100 bytes and needs the registry no more.
 *
 * @param tsMs the record's own time ({@code ts_ms}), for staleness
 * @param seq the sample's {@code seq}; -1 for a node status
 */
record Outgoing(Kind kind, String topic, String key, byte[] value, long tsMs, long seq) {

  enum Kind {
    SAMPLE,
    NODE_STATUS
  }
}
