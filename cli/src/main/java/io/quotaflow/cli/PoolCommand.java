package io.quotaflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.process.ClusterConnection;
import io.quotaflow.process.UsageException;
import io.quotaflow.schemas.Ids;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.json.JsonRecords;
import io.quotaflow.streams.topology.RecordChecks;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.producer.RecordMetadata;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code quotaflow pool set|show|delete}: a pool's {@link PoolConfig} on the pool-configs topic. */
@Command(name = "pool", mixinStandardHelpOptions = true, description = "Publish, show or delete pool configs (guarantees per pool).")
final class PoolCommand {

  @Spec
  CommandSpec spec;

  @Command(name = "set", mixinStandardHelpOptions = true,
      description = {"Create or change a pool: FIELD=VALUE for any PoolConfig field (listed below; docs/contracts.md).",
          "Fields not given keep their current values (the schema's defaults for a new pool); FIELD=null unsets a nullable one.",
          "Every value is checked before anything connects; a bad one exits 2 naming the field.",
          "Example: quotaflow pool set prod guarantee_type=BURST resource_flow_cpu=1000 burst_guarantee_cpu=2000"})
  int set(@Mixin ClusterConnection connection, @Parameters(index = "0", paramLabel = "POOL") String pool,
      @Option(names = "--dry-run", description = "Print the record that would be published (built on the schema's defaults, "
          + "not on the current config) and connect to nothing.") boolean dryRun,
      @Parameters(index = "1..*", paramLabel = "FIELD=VALUE", arity = "0..*") List<String> assignments) {
    requireId(pool);
    List<String> given = assignments == null ? List.of() : assignments;
    ObjectNode fresh = JsonRecords.MAPPER.createObjectNode().put("pool", pool);
    Records.precheck(fresh, given, PoolConfig.class, "pool config", RecordChecks::poolFieldProblems);
    PrintWriter out = spec.commandLine().getOut();
    if (dryRun) {
      DryRun.print(out, pool, validated(pool, FieldAssignments.apply(fresh, given)));
      return 0;
    }
    var registry = connection.registryClient();
    Topics topics = connection.topicsThatExist(registry, Topics::poolConfigs);
    ConfigTopics io = new ConfigTopics(connection.clientProperties());
    PoolConfig current = io.latest(topics.poolConfigs(), null).get(pool);
    ObjectNode base = current == null ? fresh : JsonRecords.toJson(current);
    PoolConfig config = validated(pool, FieldAssignments.apply(base, given));
    RecordMetadata where = io.publish(topics.poolConfigs(), pool, config);
    out.println(JsonRecords.toJson(config).toPrettyString());
    out.printf("published to %s partition %d offset %d%n", where.topic(), where.partition(), where.offset());
    out.flush();
    return 0;
  }

  /** The config the merged JSON makes, refused (exit 2) with every problem, the rules between fields included. */
  private static PoolConfig validated(String pool, ObjectNode json) {
    PoolConfig config = Records.parse(json, PoolConfig.class);
    Records.requireValid("pool config", RecordChecks.poolProblems(pool, config));
    return config;
  }

  @Command(name = "show", mixinStandardHelpOptions = true,
      description = {"Show one pool's config, or every pool's.",
          "With --streams-url, each line is POOL {\"config\": …, \"live\": …}: the config next to the pool's newest PoolState "
              + "from the streams app (null while none is computed); pools with tasks but no config show with config null."})
  int show(@Mixin ClusterConnection connection,
      @Option(names = "--streams-url", defaultValue = "${env:QUOTAFLOW_STREAMS_URL}", paramLabel = "URL",
          description = "HTTP address of any streams app instance, e.g. http://streams:9401 (env QUOTAFLOW_STREAMS_URL).")
      String streamsUrl,
      @Parameters(index = "0", arity = "0..1", paramLabel = "POOL") String pool) {
    var registry = connection.registryClient();
    Topics topics = connection.topicsThatExist(registry, Topics::poolConfigs);
    Map<String, PoolConfig> pools = new ConfigTopics(connection.clientProperties()).latest(topics.poolConfigs(), null);
    Map<String, JsonNode> live = streamsUrl == null || streamsUrl.isBlank() ? null : new LiveStateClient(streamsUrl).pools();
    Set<String> known = new TreeSet<>(pools.keySet());
    if (live != null) {
      known.addAll(live.keySet());
    }
    if (pool != null && !known.contains(pool)) {
      throw new CliException("no pool '" + pool + "' (pools: " + known + ")");
    }
    PrintWriter out = spec.commandLine().getOut();
    for (String key : live == null ? pools.keySet() : known) {
      if (pool != null && !key.equals(pool)) {
        continue;
      }
      PoolConfig config = pools.get(key);
      if (live == null) {
        out.println(key + " " + JsonRecords.toJson(config));
      } else {
        ObjectNode both = JsonRecords.MAPPER.createObjectNode();
        both.set("config", config == null ? NullNode.getInstance() : JsonRecords.toJson(config));
        both.set("live", live.getOrDefault(key, NullNode.getInstance()));
        out.println(key + " " + both);
      }
    }
    out.flush();
    return 0;
  }

  @Command(name = "delete", mixinStandardHelpOptions = true, description = "Tombstone a pool's config.")
  int delete(@Mixin ClusterConnection connection, @Parameters(index = "0", paramLabel = "POOL") String pool) {
    requireId(pool);
    var registry = connection.registryClient();
    Topics topics = connection.topicsThatExist(registry, Topics::poolConfigs);
    RecordMetadata where = new ConfigTopics(connection.clientProperties()).publish(topics.poolConfigs(), pool, null);
    PrintWriter out = spec.commandLine().getOut();
    out.printf("tombstoned pool %s in %s offset %d%n", pool, where.topic(), where.offset());
    out.flush();
    return 0;
  }

  private static void requireId(String pool) {
    if (!Ids.isValid(pool)) {
      throw new UsageException("invalid pool id '" + pool + "': ids match " + Ids.PATTERN_TEXT);
    }
  }
}
