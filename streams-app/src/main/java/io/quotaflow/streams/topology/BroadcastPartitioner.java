package io.quotaflow.streams.topology;

import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.streams.processor.StreamPartitioner;

/** Multicasts every record to all partitions (KIP-837): each stream task gets its own copy of a config. */
final class BroadcastPartitioner<K, V> implements StreamPartitioner<K, V> {
  @Override
  public Optional<Set<Integer>> partitions(String topic, K key, V value, int numPartitions) {
    return Optional.of(IntStream.range(0, numPartitions).boxed().collect(Collectors.toUnmodifiableSet()));
  }
}
