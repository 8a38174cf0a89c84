package io.quotaflow.process;

import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.TopicAdmin;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * How every Quotaflow process and command reaches Kafka and the registry and names its topics, as a
 * picocli mixin: the flags of a command that creates no topic (the enforcer, {@code profile show}).
 * A command that creates topics takes {@link ConnectionOptions}, which adds {@code --partitions}.
 *
 * <p>Each setting is layered once, in the order Kafka users expect: a flag wins over its environment
 * variable ({@code QUOTAFLOW_BOOTSTRAP}, {@code QUOTAFLOW_REGISTRY}, {@code QUOTAFLOW_KAFKA_CONFIG},
 * {@code QUOTAFLOW_TOPIC_PREFIX}, and {@code QUOTAFLOW_PARTITIONS} where there is {@code --partitions}), the variable over the
 * {@code --kafka-config} file ({@code bootstrap.servers}, {@code schema.registry.url}), the file over
 * the built-in local defaults. A flag or variable that replaces a different value of the file is
 * reported as one warning line. The file's other properties (SASL, TLS, the registry's
 * {@code schema.registry.*} / {@code basic.auth.*}) go into every client.
 *
 * <p>The variables are read in code ({@link Environment}), not as picocli defaults, so that a value
 * the operator gave is told apart from a default.
 */
public class ClusterConnection {

  public static final String DEFAULT_BOOTSTRAP = "localhost:9092";
  public static final String DEFAULT_REGISTRY = "http://localhost:8081";

  @Option(names = {"--bootstrap", "--bootstrap-server"}, paramLabel = "HOST:PORT[,...]",
      description = "Kafka bootstrap servers (env QUOTAFLOW_BOOTSTRAP; default: bootstrap.servers of --kafka-config,"
          + " else " + DEFAULT_BOOTSTRAP + "). --bootstrap-server is the name Kafka's own tools use.")
  String bootstrap;

  @Option(names = "--registry", paramLabel = "URL[,...]",
      description = "Schema registry URL(s), comma-separated (env QUOTAFLOW_REGISTRY; default: schema.registry.url of"
          + " --kafka-config, else " + DEFAULT_REGISTRY + ").")
  String registry;

  @Option(names = "--kafka-config", paramLabel = "FILE",
      description = "Properties file merged into every Kafka and registry client; its bootstrap.servers and"
          + " schema.registry.url are used unless a flag or variable gives them (env QUOTAFLOW_KAFKA_CONFIG).")
  Path kafkaConfig;

  @Option(names = "--topic-prefix", paramLabel = "PREFIX",
      description = "Prefix of every topic name (env QUOTAFLOW_TOPIC_PREFIX; default " + Topics.DEFAULT_PREFIX + ").")
  String topicPrefix;

  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  private Environment environment = Environment.system();
  private Resolved resolved;

  /** The settings as they are used, after flags, variables, file and defaults. */
  private record Resolved(String bootstrap, String registry, Map<String, Object> file, String topicPrefix, int partitions) {}

  /** Reads variables from {@code environment} instead of this process's (tests); before any value is asked for. */
  public ClusterConnection environment(Map<String, String> variables) {
    this.environment = Environment.of(variables);
    this.resolved = null;
    return this;
  }

  public String bootstrap() {
    return resolved().bootstrap();
  }

  public String registryUrl() {
    return resolved().registry();
  }

  public String topicPrefix() {
    return resolved().topicPrefix();
  }

  public int partitions() {
    return resolved().partitions();
  }

  /** The catalogue's settings: prefix, partitions, and a registry that may take new schemas. */
  public Topics.Settings topicSettings() {
    return new Topics.Settings(topicPrefix(), partitions(), true);
  }

  /** Client properties: the file's, then the bootstrap address. */
  public Map<String, Object> clientProperties() {
    Map<String, Object> props = new HashMap<>(resolved().file());
    props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
    return props;
  }

  // Resolved once, so a conflict is reported once however many clients are made.
  private Resolved resolved() {
    if (resolved == null) {
      Warnings warnings = Warnings.of(command);
      Optional<Path> file = Optional.ofNullable(kafkaConfig).map(Path::toString)
          .or(() -> environment.get("QUOTAFLOW_KAFKA_CONFIG"))
          // An empty QUOTAFLOW_KAFKA_CONFIG (a compose file's "${X:-}") or flag means no file, as none does.
          .filter(p -> !p.isBlank()).map(Path::of);
      Map<String, Object> fileProps = file.map(ClusterConnection::read).orElse(Map.of());
      String bootstrapServers = layered("--bootstrap", bootstrap, "QUOTAFLOW_BOOTSTRAP",
          CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, fileProps, file, DEFAULT_BOOTSTRAP, warnings);
      String registryUrl = layered("--registry", registry, "QUOTAFLOW_REGISTRY",
          RegistryClientConfig.URL, fileProps, file, DEFAULT_REGISTRY, warnings);
      String prefix = Optional.ofNullable(topicPrefix).or(() -> environment.get("QUOTAFLOW_TOPIC_PREFIX"))
          .orElse(Topics.DEFAULT_PREFIX);
      int count = partitionsFlag() != null ? partitionsFlag() : !readsPartitions() ? Topics.DEFAULT_PARTITIONS
          : environment.get("QUOTAFLOW_PARTITIONS").map(v -> Environment.integer("QUOTAFLOW_PARTITIONS", v)).orElse(Topics.DEFAULT_PARTITIONS);
      resolved = new Resolved(bootstrapServers, registryUrl, fileProps, prefix, count);
    }
    return resolved;
  }

  /** {@code --partitions}, where the command has it. */
  Integer partitionsFlag() {
    return null;
  }

  /**
   * Whether the command takes a partition count at all: one that creates no topic reads each topic's
   * own, so it neither has {@code --partitions} nor reads {@code QUOTAFLOW_PARTITIONS}.
   */
  boolean readsPartitions() {
    return false;
  }

  /** Flag, else variable, else the file's key, else the default; a flag or variable that replaces the file's value is reported. */
  private String layered(String flag, String flagValue, String variable, String fileKey, Map<String, Object> fileProps,
      Optional<Path> file, String defaultValue, Warnings warnings) {
    Optional<String> inFile = Optional.ofNullable(fileProps.get(fileKey)).map(v -> v.toString().trim()).filter(v -> !v.isEmpty());
    String given;
    String givenBy;
    if (flagValue != null) {
      given = flagValue;
      givenBy = flag;
    } else {
      Optional<String> env = environment.get(variable);
      if (env.isEmpty()) {
        return inFile.orElse(defaultValue);
      }
      given = env.get();
      givenBy = variable;
    }
    if (inFile.isPresent() && !inFile.get().equals(given)) {
      warnings.warn(givenBy + " " + given + " overrides " + fileKey + " " + inFile.get() + " from " + file.orElseThrow());
    }
    return given;
  }

  private static Map<String, Object> read(Path file) {
    Properties properties = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(in);
    } catch (IOException e) {
      throw new ProcessException("cannot read --kafka-config " + file + ": " + e.getMessage());
    }
    Map<String, Object> props = new HashMap<>();
    properties.forEach((k, v) -> props.put(k.toString(), v));
    return props;
  }

  public SchemaRegistryClient registryClient() {
    Map<String, Object> props = clientProperties();
    props.put(RegistryClientConfig.URL, registryUrl());
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
    requireTopics(clientProperties(), List.of(needed.apply(topics).name()));
    return topics;
  }

  /**
   * Fails, naming the first missing topic and the likely mistake, unless every topic named is on the
   * broker. Only {@code quotaflow streams} creates topics (and so decides their partition counts):
   * the operator tools and the collector check with this instead.
   *
   * @throws ProcessException when a topic is missing, the broker refuses this client (one line naming
   *     the principal and the topic) or cannot be reached within 15 s
   */
  public static void requireTopics(Map<String, Object> clientProperties, List<String> names) {
    Object bootstrap = clientProperties.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
    Map<String, Object> props = new HashMap<>(clientProperties);
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000);
    try (Admin admin = Admin.create(props)) {
      // Described by name, not listed: a listing silently leaves out the topics the principal may not
      // see, which would read as "no topic" when an ACL is missing.
      Map<String, KafkaFuture<TopicDescription>> described = admin.describeTopics(names).topicNameValues();
      for (String name : names) {
        try {
          // Longer than the admin's own 15 s, so its reason (no node assignment, auth…) is the one reported.
          described.get(name).get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
          if (e.getCause() instanceof UnknownTopicOrPartitionException) {
            throw new ProcessException(noTopic(name, bootstrap));
          }
          throw cannotReach(bootstrap, props, TopicAdmin.namingTheTopic(e.getCause(), name));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ProcessException("interrupted while describing the topics at " + bootstrap, e);
    } catch (TimeoutException | IllegalStateException | KafkaException e) {
      throw cannotReach(bootstrap, props, e);
    }
  }

  private static ProcessException cannotReach(Object bootstrap, Map<String, Object> props, Throwable e) {
    return KafkaRefusal.describe(e, props)
        .map(refusal -> new ProcessException("Kafka at " + bootstrap + " refused: " + refusal, e))
        .orElseGet(() -> new ProcessException("cannot reach Kafka at " + bootstrap + ": " + ProcessException.rootMessage(e), e));
  }

  /** What an operator tool says of a missing topic: the likely mistake, and who creates topics. */
  public static String noTopic(String topic, Object bootstrap) {
    return "no topic " + topic + " on " + bootstrap + "; is --topic-prefix right? (topics are created by quotaflow streams)";
  }
}
