package io.quotaflow.enforcer;

import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.FreezeDecision;

/** One record of the topics the enforcer reads, decoded; a null value is a tombstone. */
sealed interface FeedRecord {

  DecisionRef ref();

  String key();

  record Cpu(DecisionRef ref, String key, CpuDecision value) implements FeedRecord {}

  record Freeze(DecisionRef ref, String key, FreezeDecision value) implements FeedRecord {}

  record Cluster(DecisionRef ref, String key, ClusterConfig value) implements FeedRecord {}

  /** A record whose value does not decode (bad bytes, unknown schema id); {@code topicKind} says which feed. */
  record Undecodable(DecisionRef ref, String key, Kind topicKind, String error) implements FeedRecord {}

  /** Which of the three topics a record came from. */
  enum Kind {
    CPU,
    FREEZE,
    CLUSTER
  }
}
