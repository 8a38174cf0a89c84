package io.quotaflow.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.process.ConnectionOptions;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.json.JsonRecords;
import io.quotaflow.streams.topology.ClusterConfigValidator;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.RecordMetadata;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code quotaflow cluster set|show}: the {@link ClusterConfig} in force, including the enforcement kill switch. */
@Command(name = "cluster", mixinStandardHelpOptions = true,
    description = "Change or show the cluster config (enforcement kill switch, CFS and gating parameters).")
final class ClusterCommand {

  @Command(name = "set", mixinStandardHelpOptions = true,
      description = {"Change fields of the cluster config in force; the others keep their values.",
          "Example: quotaflow cluster set enforcement=DRY_RUN peak_gating_mode=BUDGET"})
  int set(@Mixin ConnectionOptions connection, @Option(names = "--cluster", paramLabel = "ID", defaultValue = "main", description = "Cluster id when none is set yet (default ${DEFAULT-VALUE}).")
      String cluster,
      @Parameters(paramLabel = "FIELD=VALUE", arity = "1..*") List<String> assignments) {
    var registry = connection.registryClient();
    Topics topics = connection.existingTopics(registry);
    ConfigTopics io = new ConfigTopics(connection.clientProperties());
    ClusterConfig current = current(io, topics);
    ObjectNode base = current == null ? JsonRecords.MAPPER.createObjectNode().put("cluster", cluster) : JsonRecords.toJson(current);
    ClusterConfig config = Records.parse(FieldAssignments.apply(base, assignments), ClusterConfig.class);
    Records.requireValid("cluster config", ClusterConfigValidator.problems(config));
    RecordMetadata where = io.publish(topics.clusterConfig(), config.getCluster(), config);
    System.out.println(JsonRecords.toJson(config).toPrettyString());
    System.out.printf("published to %s offset %d%n", where.topic(), where.offset());
    return 0;
  }

  @Command(name = "show", mixinStandardHelpOptions = true, description = "Show the cluster config in force (defaults when none was set).")
  int show(@Mixin ConnectionOptions connection) {
    var registry = connection.registryClient();
    ClusterConfig current = current(new ConfigTopics(connection.clientProperties()), connection.existingTopics(registry));
    if (current == null) {
      System.out.println("# no cluster config published: the defaults are in force");
      current = ClusterConfig.newBuilder().setCluster("main").build();
    }
    System.out.println(JsonRecords.toJson(current).toPrettyString());
    return 0;
  }

  /** The newest config on the topic, whatever its key: one cluster, one config in force. */
  private static ClusterConfig current(ConfigTopics io, Topics topics) {
    Map<String, ClusterConfig> all = io.latest(topics.clusterConfig(), null);
    ClusterConfig newest = null;
    for (ClusterConfig config : all.values()) {
      newest = config;
    }
    return newest;
  }
}
