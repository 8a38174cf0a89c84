package io.quotaflow.schemas;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Utils;

/**
 * The one rule that puts every record of a node in the same partition of every node-keyed topic:
 * {@code toPositive(murmur2(utf8(node))) % partitions}, Kafka's default key hash applied to the part
 * of the key before '/'. Collectors, operator tools, the streams app's sinks and any job system must
 * all use it, or a node's samples, specs and decisions land in different stream tasks.
 */
public final class NodePartitioning {

  private NodePartitioning() {}

  public static int partitionOfKey(String key, int partitions) {
    if (key == null) {
      throw new IllegalArgumentException("node-partitioned records need a key (node or node/task)");
    }
    return partitionOfNode(TaskKey.nodeOf(key), partitions);
  }

  public static int partitionOfNode(String node, int partitions) {
    if (partitions <= 0) {
      throw new IllegalArgumentException("partition count must be positive, was " + partitions);
    }
    return Utils.toPositive(Utils.murmur2(node.getBytes(StandardCharsets.UTF_8))) % partitions;
  }
}
