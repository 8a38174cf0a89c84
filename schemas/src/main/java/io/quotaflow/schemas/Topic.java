package io.quotaflow.schemas;

import java.util.Map;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.serialization.Serde;

/**
 * A topic with everything needed to use it: its name (prefix included), key and value serdes, the
 * partition count, whether it is partitioned by node, and the topic-level configs it is created with.
 */
public record Topic<K, V>(
    String name,
    Serde<K> keySerde,
    Serde<V> valueSerde,
    int partitions,
    boolean nodePartitioned,
    Map<String, String> configs) {

  public Topic {
    configs = Map.copyOf(configs);
  }

  public NewTopic newTopic(short replicationFactor) {
    return new NewTopic(name, partitions, replicationFactor).configs(configs);
  }

  @Override
  public String toString() {
    return name;
  }
}
