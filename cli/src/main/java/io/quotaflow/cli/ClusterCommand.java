package io.quotaflow.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.process.ClusterConnection;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.json.JsonRecords;
import io.quotaflow.streams.topology.ClusterConfigValidator;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.RecordMetadata;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code quotaflow cluster set|show}: the {@link ClusterConfig} in force, including the enforcement kill switch. */
@Command(name = "cluster", mixinStandardHelpOptions = true,
    description = "Change or show the cluster config (enforcement kill switch, CFS and gating parameters).")
final class ClusterCommand {

  @Spec
  CommandSpec spec;

  @Command(name = "set", mixinStandardHelpOptions = true,
      description = {"Change fields of the cluster config in force: FIELD=VALUE for any ClusterConfig field (listed below).",
          "The others keep their values (the schema's defaults when none is set yet); FIELD=null unsets a nullable one.",
          "Every value is checked before anything connects; a bad one exits 2 naming the field.",
          "Example: quotaflow cluster set enforcement=DRY_RUN peak_gating_mode=BUDGET"})
  int set(@Mixin ClusterConnection connection, @Option(names = "--cluster", paramLabel = "ID", defaultValue = "main", description = "Cluster id when none is set yet (default ${DEFAULT-VALUE}).")
      String cluster,
      @Option(names = "--dry-run", description = "Print the record that would be published (built on the schema's defaults, "
          + "not on the config in force) and connect to nothing.") boolean dryRun,
      @Parameters(paramLabel = "FIELD=VALUE", arity = "1..*") List<String> assignments) {
    ObjectNode fresh = JsonRecords.MAPPER.createObjectNode().put("cluster", cluster);
    Records.precheck(fresh, assignments, ClusterConfig.class, "cluster config", ClusterConfigValidator::fieldProblems);
    PrintWriter out = spec.commandLine().getOut();
    if (dryRun) {
      ClusterConfig draft = validated(FieldAssignments.apply(fresh, assignments));
      DryRun.print(out, draft.getCluster(), draft);
      return 0;
    }
    var registry = connection.registryClient();
    Topics topics = connection.topicsThatExist(registry, Topics::clusterConfig);
    ConfigTopics io = new ConfigTopics(connection.clientProperties());
    ClusterConfig current = current(io, topics);
    ObjectNode base = current == null ? fresh : JsonRecords.toJson(current);
    ClusterConfig config = validated(FieldAssignments.apply(base, assignments));
    RecordMetadata where = io.publish(topics.clusterConfig(), config.getCluster(), config);
    out.println(JsonRecords.toJson(config).toPrettyString());
    out.printf("published to %s offset %d%n", where.topic(), where.offset());
    out.flush();
    return 0;
  }

  /** The config the merged JSON makes, refused (exit 2) with every problem, the rules between fields included. */
  private static ClusterConfig validated(ObjectNode json) {
    ClusterConfig config = Records.parse(json, ClusterConfig.class);
    Records.requireValid("cluster config", ClusterConfigValidator.problems(config));
    return config;
  }

  @Command(name = "show", mixinStandardHelpOptions = true, description = "Show the cluster config in force (defaults when none was set).")
  int show(@Mixin ClusterConnection connection) {
    var registry = connection.registryClient();
    ClusterConfig current = current(new ConfigTopics(connection.clientProperties()),
        connection.topicsThatExist(registry, Topics::clusterConfig));
    PrintWriter out = spec.commandLine().getOut();
    if (current == null) {
      out.println("# no cluster config published: the defaults are in force");
      current = ClusterConfig.newBuilder().setCluster("main").build();
    }
    out.println(JsonRecords.toJson(current).toPrettyString());
    out.flush();
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
