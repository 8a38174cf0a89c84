package io.quotaflow.benchmarks;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.common.TopicPartition;

/** What the brokers hold on disk, by topic. */
final class BrokerLogs {

  private BrokerLogs() {}

  /** Bytes of each topic's partitions in the brokers' log directories. */
  static Map<String, Long> bytesByTopic(Admin admin) throws Exception {
    List<Integer> brokers = admin.describeCluster().nodes().get().stream().map(node -> node.id()).toList();
    Map<String, Long> bytes = new HashMap<>();
    for (Map<String, LogDirDescription> dirs : admin.describeLogDirs(brokers).allDescriptions().get().values()) {
      for (LogDirDescription dir : dirs.values()) {
        for (Map.Entry<TopicPartition, ReplicaInfo> replica : dir.replicaInfos().entrySet()) {
          bytes.merge(replica.getKey().topic(), replica.getValue().size(), Long::sum);
        }
      }
    }
    return bytes;
  }
}
