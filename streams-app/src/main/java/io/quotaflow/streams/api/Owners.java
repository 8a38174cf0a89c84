package io.quotaflow.streams.api;

import io.quotaflow.schemas.NodeStreamPartitioner;
import io.quotaflow.schemas.TaskKey;
import io.quotaflow.streams.topology.LiveStores;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.processor.StreamPartitioner;

/** Finds which instance owns a request's key, from Kafka Streams' metadata ({@code application.server} of each). */
final class Owners {

  /** Node-keyed stores are partitioned as their input topics are: by the part of the key before '/'. */
  private static final StreamPartitioner<String, Object> BY_NODE = new NodeStreamPartitioner<>();
  /**
   * The pool processor's stores sit on the one partition of its single-partition inputs, whatever
   * the pool; its input key is a node partition's number, not the pool, so hashing the pool would be wrong.
   */
  private static final StreamPartitioner<String, Object> POOL_PARTITION = (topic, key, value, partitions) -> Optional.of(Set.of(0));

  private final KafkaStreams streams;

  Owners(KafkaStreams streams) {
    this.streams = streams;
  }

  /** The owner; a 503 {@link ApiException} while Kafka Streams does not know it (starting, rebalancing). */
  Owner locate(Route route) {
    KeyQueryMetadata metadata;
    try {
      metadata = switch (route.kind()) {
        case POOLS -> streams.queryMetadataForKey(LiveStores.POOL_STATE, "", POOL_PARTITION);
        case POOL -> streams.queryMetadataForKey(LiveStores.POOL_STATE, route.id(), POOL_PARTITION);
        case NODE -> streams.queryMetadataForKey(LiveStores.NODE_STATUS, route.node(), BY_NODE);
        case TASK -> streams.queryMetadataForKey(LiveStores.TASKS, TaskKey.keyOf(route.node(), route.id()), BY_NODE);
      };
    } catch (InvalidStateStoreException | IllegalStateException e) {
      throw ApiException.unavailable("live state is not queryable while Kafka Streams is " + streams.state() + ": " + e.getMessage());
    }
    if (metadata == null || metadata.equals(KeyQueryMetadata.NOT_AVAILABLE) || metadata.activeHost().port() < 0) {
      throw ApiException.unavailable("no instance owns this key yet (Kafka Streams is " + streams.state() + "): retry");
    }
    return new Owner(metadata.activeHost(), metadata.partition());
  }
}
