package io.quotaflow.schemas;

import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.processor.StreamPartitioner;

/** The streams app's sinks use the same node rule as producers ({@link NodePartitioning}). */
public final class NodeStreamPartitioner<V> implements StreamPartitioner<String, V> {

  @Override
  public Optional<Set<Integer>> partitions(String topic, String key, V value, int numPartitions) {
    return Optional.of(Set.of(NodePartitioning.partitionOfKey(key, numPartitions)));
  }
}
