package io.quotaflow.enforcer;

import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.registry.RegistryClientConfig;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import io.quotaflow.schemas.registry.SchemaRegistryClients;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The enforcer's own entry point, for running it without the {@code quotaflow} jar's other
 * commands. Same flags as {@code quotaflow enforcer}: the connection flags are repeated here
 * because nothing may depend on the cli module.
 */
@Command(name = "quotaflow-enforcer", mixinStandardHelpOptions = true,
    description = "Apply this node's CPU and freeze decisions to its cgroups and publish what was done.")
public final class EnforcerMain implements Callable<Integer> {

  @Mixin
  EnforcerOptions options;

  @Option(names = "--bootstrap", defaultValue = "${env:QUOTAFLOW_BOOTSTRAP:-localhost:9092}",
      description = "Kafka bootstrap servers (env QUOTAFLOW_BOOTSTRAP; default ${DEFAULT-VALUE}).")
  String bootstrap;

  @Option(names = "--registry", defaultValue = "${env:QUOTAFLOW_REGISTRY:-http://localhost:8081}",
      description = "Schema registry URL(s), comma-separated (env QUOTAFLOW_REGISTRY; default ${DEFAULT-VALUE}).")
  String registry;

  @Option(names = "--kafka-config", defaultValue = "${env:QUOTAFLOW_KAFKA_CONFIG}",
      description = "Properties file merged into every Kafka and registry client (env QUOTAFLOW_KAFKA_CONFIG).")
  Path kafkaConfig;

  @Option(names = "--topic-prefix", defaultValue = "${env:QUOTAFLOW_TOPIC_PREFIX:-" + Topics.DEFAULT_PREFIX + "}",
      description = "Prefix of every topic name (env QUOTAFLOW_TOPIC_PREFIX; default ${DEFAULT-VALUE}).")
  String topicPrefix;

  public static void main(String[] args) {
    System.exit(new CommandLine(new EnforcerMain()).execute(args));
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    Map<String, Object> client = new HashMap<>();
    if (kafkaConfig != null) {
      Properties file = new Properties();
      try (Reader in = Files.newBufferedReader(kafkaConfig, StandardCharsets.UTF_8)) {
        file.load(in);
      }
      file.forEach((k, v) -> client.put(k.toString(), v));
    }
    client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    Map<String, Object> registryProperties = new HashMap<>(client);
    registryProperties.put(RegistryClientConfig.URL, registry);
    SchemaRegistryClient registryClient = SchemaRegistryClients.create(registryProperties);
    // The partition count is read from each topic; the catalogue's only matters to whoever creates them.
    Topics topics = Topics.create(new Topics.Settings(topicPrefix, Topics.DEFAULT_PARTITIONS, true), registryClient);
    return new EnforcerProcess().run(options, client, topics, new PrintWriter(System.out, true),
        new PrintWriter(System.err, true));
  }
}
