package io.quotaflow.schemas;

import java.util.Map;
import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.common.Cluster;

/** Kafka producer {@link Partitioner} for node-keyed topics ({@code partitioner.class}). */
public final class NodePartitioner implements Partitioner {

  @Override
  public int partition(String topic, Object key, byte[] keyBytes, Object value, byte[] valueBytes, Cluster cluster) {
    if (!(key instanceof String text)) {
      throw new IllegalArgumentException("topic " + topic + " is node-partitioned: its key must be a String node or node/task, got "
          + (key == null ? "null" : key.getClass().getName()));
    }
    return NodePartitioning.partitionOfKey(text, cluster.partitionCountForTopic(topic));
  }

  @Override
  public void configure(Map<String, ?> configs) {}

  @Override
  public void close() {}
}
