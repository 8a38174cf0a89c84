package io.quotaflow.cli.replay;

import org.apache.avro.specific.SpecificRecord;

/**
 * One recorded input record, decoded, where the live app read it: topic kind, partition and offset,
 * and its record timestamp (the time Kafka Streams merged partitions by).
 *
 * @param value null for a tombstone
 */
public record InputRecord(Kind kind, int partition, long offset, long timestampMs, String key, SpecificRecord value) {

  /**
   * The input topics, in the order records of equal timestamps are replayed: configs before what they govern.
   * RESULT: the enforcers' reflex freezes ({@code enforcement-results}, REFLEX_FROZEN only), which move the memory gate.
   */
  public enum Kind {
    CLUSTER, POOL, NODE, TASK, SAMPLE, RESULT;

    /** Streams, read from the warm-up start; the others are compacted and folded to the value in force then. */
    boolean isStream() {
      return this == SAMPLE || this == RESULT;
    }
  }
}
