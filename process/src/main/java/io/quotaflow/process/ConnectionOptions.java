package io.quotaflow.process;

import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.registry.RegistryClientConfig;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import io.quotaflow.schemas.registry.SchemaRegistryClients;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.Option;

/**
 * How every Quotaflow process and command reaches Kafka and the registry, as a picocli mixin.
 * Flags win over environment variables ({@code QUOTAFLOW_BOOTSTRAP}, {@code QUOTAFLOW_REGISTRY},
 * {@code QUOTAFLOW_KAFKA_CONFIG}, {@code QUOTAFLOW_TOPIC_PREFIX}, {@code QUOTAFLOW_PARTITIONS});
 * {@code --kafka-config} merges client properties (SASL, TLS, and the registry's
 * {@code schema.registry.*} / {@code basic.auth.*}) into every client.
 */
public final class ConnectionOptions {

  @Option(names = "--bootstrap", paramLabel = "HOST:PORT[,...]", defaultValue = "${env:QUOTAFLOW_BOOTSTRAP:-localhost:9092}",
      description = "Kafka bootstrap servers (env QUOTAFLOW_BOOTSTRAP; default ${DEFAULT-VALUE}).")
  String bootstrap;

  @Option(names = "--registry", paramLabel = "URL[,...]", defaultValue = "${env:QUOTAFLOW_REGISTRY:-http://localhost:8081}",
      description = "Schema registry URL(s), comma-separated (env QUOTAFLOW_REGISTRY; default ${DEFAULT-VALUE}).")
  String registry;

  @Option(names = "--kafka-config", paramLabel = "FILE", defaultValue = "${env:QUOTAFLOW_KAFKA_CONFIG}",
      description = "Properties file merged into every Kafka and registry client (env QUOTAFLOW_KAFKA_CONFIG).")
  Path kafkaConfig;

  @Option(names = "--topic-prefix", paramLabel = "PREFIX", defaultValue = "${env:QUOTAFLOW_TOPIC_PREFIX:-" + Topics.DEFAULT_PREFIX + "}",
      description = "Prefix of every topic name (env QUOTAFLOW_TOPIC_PREFIX; default ${DEFAULT-VALUE}).")
  String topicPrefix;

  @Option(names = "--partitions", paramLabel = "N", defaultValue = "${env:QUOTAFLOW_PARTITIONS:-" + Topics.DEFAULT_PARTITIONS + "}",
      description = "Partitions of every node-keyed topic (env QUOTAFLOW_PARTITIONS; default ${DEFAULT-VALUE}).")
  int partitions;

  public String bootstrap() {
    return bootstrap;
  }

  public String registryUrl() {
    return registry;
  }

  public String topicPrefix() {
    return topicPrefix;
  }

  public int partitions() {
    return partitions;
  }

  /** The catalogue's settings: prefix, partitions, and a registry that may take new schemas. */
  public Topics.Settings topicSettings() {
    return new Topics.Settings(topicPrefix, partitions, true);
  }

  /** Client properties: the file's, then the bootstrap address. */
  public Map<String, Object> clientProperties() {
    Map<String, Object> props = new HashMap<>();
    // An empty QUOTAFLOW_KAFKA_CONFIG (a compose file's "${X:-}") means no file, as no variable does.
    if (kafkaConfig != null && !kafkaConfig.toString().isBlank()) {
      Properties file = new Properties();
      try (Reader in = Files.newBufferedReader(kafkaConfig, StandardCharsets.UTF_8)) {
        file.load(in);
      } catch (IOException e) {
        throw new ProcessException("cannot read --kafka-config " + kafkaConfig + ": " + e.getMessage());
      }
      file.forEach((k, v) -> props.put(k.toString(), v));
    }
    props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    return props;
  }

  public SchemaRegistryClient registryClient() {
    Map<String, Object> props = clientProperties();
    props.put(RegistryClientConfig.URL, registry);
    try {
      return SchemaRegistryClients.create(props);
    } catch (IllegalArgumentException e) {
      throw new ProcessException("bad registry settings: " + e.getMessage());
    }
  }

  public Topics topics(SchemaRegistryClient registry) {
    try {
      return Topics.create(topicSettings(), registry);
    } catch (IllegalArgumentException e) {
      throw new ProcessException(e.getMessage());
    }
  }

  /**
   * The catalogue, once the topic {@code needed} picks from it is known to be on the broker. Operator
   * tools create no topic: a missing one usually means a wrong {@code --topic-prefix} or bootstrap,
   * which creating topics would hide behind a second, empty set of them, and a {@code show} should
   * change nothing. Topics are created by {@code quotaflow streams}, with its replication settings.
   */
  public Topics topicsThatExist(SchemaRegistryClient registry, Function<Topics, Topic<?, ?>> needed) {
    Topics topics = topics(registry);
    String name = needed.apply(topics).name();
    Map<String, Object> props = clientProperties();
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000);
    Set<String> existing;
    try (Admin admin = Admin.create(props)) {
      existing = admin.listTopics().names().get(15, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ProcessException("interrupted while listing the topics at " + bootstrap, e);
    } catch (ExecutionException | TimeoutException | KafkaException e) {
      throw new ProcessException("cannot reach Kafka at " + bootstrap + ": " + ProcessException.rootMessage(e), e);
    }
    if (!existing.contains(name)) {
      throw new ProcessException(noTopic(name, bootstrap));
    }
    return topics;
  }

  /** What an operator tool says of a missing topic: the likely mistake, and who creates topics. */
  public static String noTopic(String topic, Object bootstrap) {
    return "no topic " + topic + " on " + bootstrap + "; is --topic-prefix right? (topics are created by quotaflow streams)";
  }
}
