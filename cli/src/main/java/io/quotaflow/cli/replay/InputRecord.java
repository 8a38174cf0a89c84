package io.quotaflow.cli.replay;

import org.apache.avro.specific.SpecificRecord;

/**
 * One recorded input record, decoded, where the live app read it: topic kind, partition and offset,
 * and its record timestamp (the time Kafka Streams merged partitions by).
 *
 * @param value null for a tombstone
 */
public record InputRecord(Kind kind, int partition, long offset, long timestampMs, String key, SpecificRecord value) {

  /** The input topics, in the order records of equal timestamps are replayed: configs before what they govern. */
  public enum Kind { CLUSTER, POOL, NODE, TASK, SAMPLE }
}
