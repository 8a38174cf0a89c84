package io.quotaflow.enforcer;

/**
 * Where a record the enforcer acts on came from: every {@code EnforcementResult} names it, so a
 * result can be traced to the exact decision (or, for a restore, the cluster config) it answers.
 *
 * @param recordTimestampMs the record's Kafka timestamp, epoch ms (a FREEZE's age on start is judged by it)
 */
public record DecisionRef(String topic, int partition, long offset, long recordTimestampMs) {

  @Override
  public String toString() {
    return topic + "-" + partition + "@" + offset;
  }
}
