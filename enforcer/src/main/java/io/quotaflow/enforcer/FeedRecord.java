package io.quotaflow.enforcer;

import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.GateTable;

/** One record of the topics the enforcer reads, decoded; a null value is a tombstone. */
sealed interface FeedRecord {

  DecisionRef ref();

  String key();

  record Cpu(DecisionRef ref, String key, CpuDecision value) implements FeedRecord {}

  record Freeze(DecisionRef ref, String key, FreezeDecision value) implements FeedRecord {}

  record Cluster(DecisionRef ref, String key, ClusterConfig value) implements FeedRecord {}

  /** The node's memory gate as the streams app last published it (keyed node): what the reflex watches by. */
  record Gate(DecisionRef ref, String key, GateTable value) implements FeedRecord {}

  /** A record whose value does not decode (bad bytes, unknown schema id); {@code topicKind} says which feed. */
  record Undecodable(DecisionRef ref, String key, Kind topicKind, String error) implements FeedRecord {}

  /** Which of the four topics a record came from. */
  enum Kind {
    CPU,
    FREEZE,
    CLUSTER,
    GATE
  }
}
