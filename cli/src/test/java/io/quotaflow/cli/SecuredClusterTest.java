package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cgroups.PlainFileTree;
import io.quotaflow.collector.CollectorCommand;
import io.quotaflow.embedded.BrokerSecurity;
import io.quotaflow.embedded.BrokerSettings;
import io.quotaflow.embedded.EmbeddedKafka;
import io.quotaflow.embedded.EmbeddedSchemaRegistry;
import io.quotaflow.embedded.RegistrySettings;
import io.quotaflow.enforcer.EnforcerCommand;
import io.quotaflow.process.KafkaRefusal;
import io.quotaflow.process.ProcessCommandLine;
import io.quotaflow.schemas.registry.RegistryClientConfig;
import io.quotaflow.streams.StreamsCommand;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.TlsFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A secured deployment: the broker's client listener is SASL_SSL with one SCRAM user per component
 * and the KRaft authorizer, each component gets exactly the ACLs docs/deployment.md "ACLs per
 * component" lists, and the registry asks for basic authentication over HTTPS. Every component is
 * the real command, configured only through its {@code --kafka-config} file, as an operator would.
 * First the whole pipeline works (collector → streams app → enforcer, and the operator tools);
 * then each principal's ACLs are removed and the component must say so in one line instead of
 * hanging or printing a stack trace.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SecuredClusterTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final String NODE = "node-a";
  private static final String TASK = "job-1";
  private static final String REGISTRY_USER = "registry-user:registry-secret";
  private static final String APP_ID = "quotaflow-streams";

  @TempDir static Path dir;

  private static TlsFiles tls;
  private static EmbeddedKafka kafka;
  private static EmbeddedSchemaRegistry registry;
  private static final Map<String, List<AclBinding>> ACLS = new LinkedHashMap<>();
  private static final Map<String, Path> CONFIG_FILES = new HashMap<>();

  @BeforeAll
  static void startSecuredBrokerAndRegistry() throws Exception {
    long started = System.nanoTime();
    tls = TlsFiles.generate(dir.resolve("tls"));
    long tlsMs = (System.nanoTime() - started) / 1_000_000;
    Map<String, String> users = new HashMap<>();
    for (String user : List.of("admin", "collector", "enforcer", "streams", "operator")) {
      users.put(user, user + "-" + Long.toHexString(System.nanoTime()));
    }
    kafka = EmbeddedKafka.start(BrokerSettings.defaults()
        .withSecurity(BrokerSecurity.scram(tls.keyStore(), tls.trustStore(), tls.password(), "admin", users)));
    registry = EmbeddedSchemaRegistry.start(RegistrySettings.forBroker(kafka.bootstrapServers())
        .withKafkaConfig(kafka.clientConfig()).withBasicAuth(REGISTRY_USER).withTls(tls.serverContext()));
    System.out.printf("secured broker %s (SASL_SSL, SCRAM-SHA-512) started in %d ms, TLS files in %d ms, registry %s%n",
        kafka.bootstrapServers(), kafka.startupTime().toMillis(), tlsMs, registry.url());

    ACLS.put("collector", List.of(
        allow("collector", topic("quotaflow.samples"), AclOperation.WRITE),
        allow("collector", topic("quotaflow.nodes"), AclOperation.WRITE)));
    ACLS.put("enforcer", List.of(
        allow("enforcer", topic("quotaflow.cpu-decisions"), AclOperation.READ),
        allow("enforcer", topic("quotaflow.freeze-decisions"), AclOperation.READ),
        allow("enforcer", topic("quotaflow.gate-tables"), AclOperation.READ),
        allow("enforcer", topic("quotaflow.cluster-config"), AclOperation.READ),
        allow("enforcer", topic("quotaflow.enforcement-results"), AclOperation.WRITE)));
    List<AclBinding> streams = new ArrayList<>();
    for (String prefix : List.of("quotaflow.", APP_ID + "-")) {
      for (AclOperation operation : List.of(AclOperation.CREATE, AclOperation.DESCRIBE, AclOperation.READ, AclOperation.WRITE)) {
        streams.add(allow("streams", new ResourcePattern(ResourceType.TOPIC, prefix, PatternType.PREFIXED), operation));
      }
    }
    streams.add(allow("streams", new ResourcePattern(ResourceType.GROUP, APP_ID, PatternType.LITERAL), AclOperation.READ));
    for (AclOperation operation : List.of(AclOperation.WRITE, AclOperation.DESCRIBE)) {
      streams.add(allow("streams", new ResourcePattern(ResourceType.TRANSACTIONAL_ID, APP_ID + "-", PatternType.PREFIXED), operation));
    }
    ACLS.put("streams", streams);
    List<AclBinding> operator = new ArrayList<>();
    for (String name : List.of("task-specs", "pool-configs", "cluster-config")) {
      operator.add(allow("operator", topic("quotaflow." + name), AclOperation.READ));
      operator.add(allow("operator", topic("quotaflow." + name), AclOperation.WRITE));
    }
    operator.add(allow("operator", topic("quotaflow.config-broadcast"), AclOperation.READ));
    ACLS.put("operator", operator);
    for (String component : ACLS.keySet()) {
      grant(component);
      CONFIG_FILES.put(component, configFile(component, kafka.clientConfig(component), REGISTRY_USER, tls.trustStore()));
    }
  }

  @AfterAll
  static void stop() {
    if (registry != null) {
      registry.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  @Order(1)
  void everyComponentWorksWithOnlyItsAclsFromSampleToAppliedDecision() throws Exception {
    PlainFileTree tree = PlainFileTree.v1(dir.resolve("cgroup"), "qf").v1Task("qf", TASK);
    Running streams = startStreams();
    try {
      streams.awaitOutput("advertised as");
      operator("spec", "set", NODE + "/" + TASK, "ncpus=1", "cpu_limit=1",
          "job_cpu_monitor.enable_cpu_reclaim=true", "job_cpu_monitor.check_period_ms=200",
          "job_cpu_monitor.smoothing_factor=0.5", "job_cpu_monitor.relative_lower_bound=0.1",
          "job_cpu_monitor.decrease_coefficient=0.7", "job_cpu_monitor.min_cpu_limit=0.1").expectOk();
      operator("pool", "set", "prod", "weight=2").expectOk();
      operator("cluster", "set", "enforcement=ON").expectOk();
      assertThat(operator("spec", "show", NODE + "/" + TASK).expectOk().out()).contains(TASK);
      assertThat(operator("pool", "show", "prod").expectOk().out()).contains("prod");
      assertThat(operator("cluster", "show").expectOk().out()).contains("ON");

      try (Running enforcer = startEnforcer(tree); Running collector = startCollector(tree)) {
        enforcer.awaitOutput("/metrics");
        collector.awaitOutput("/metrics");
        // The idle task's limit comes down: samples reached the streams app, its decision the enforcer.
        KafkaWait.until(PATIENCE, "the idle task's cpu.shares to come down from 1024 (collector: " + collector.output()
            + ", streams: " + streams.output() + ", enforcer: " + enforcer.output() + ")",
            () -> Integer.parseInt(tree.readValue("cpu/qf/" + TASK + "/cpu.shares")) < 1024);
        KafkaWait.until(PATIENCE, "the enforcer's result on quotaflow.enforcement-results",
            () -> recordCount("quotaflow.enforcement-results") > 0);
        System.out.printf("pipeline over SASL_SSL: cpu.shares now %s%n", tree.readValue("cpu/qf/" + TASK + "/cpu.shares"));
      }
    } finally {
      streams.close();
    }
  }

  @Test
  @Order(2)
  void theOperatorToolsWithoutTheirAclsSayWhichAuthorizationIsMissing() throws Exception {
    revoke("operator");
    try {
      OperatorRun set = operator("cluster", "set", "enforcement=ON");
      OperatorRun show = operator("spec", "show");
      System.out.println("operator without ACLs: " + set.err().strip() + " | " + show.err().strip());
      assertThat(set.exitCode()).isEqualTo(ProcessCommandLine.FAILURE);
      assertOneClearLine(set.err(), "quotaflow cluster set: ", "quotaflow.cluster-config");
      assertThat(show.exitCode()).isEqualTo(ProcessCommandLine.FAILURE);
      assertOneClearLine(show.err(), "quotaflow spec show: ", "quotaflow.task-specs");
    } finally {
      grant("operator");
    }
  }

  @Test
  @Order(3)
  void theCollectorWithoutItsAclsStopsNamingTheTopic() throws Exception {
    PlainFileTree tree = PlainFileTree.v1(dir.resolve("cgroup-refused"), "qf").v1Task("qf", TASK);
    revoke("collector");
    try (Running collector = startCollector(tree)) {
      assertThat(collector.awaitExit()).isEqualTo(ProcessCommandLine.FAILURE);
      System.out.println("collector without ACLs: " + collector.output().strip());
      assertThat(collector.output().lines()).singleElement().asString()
          .startsWith("quotaflow collector: Kafka at " + kafka.bootstrapServers() + " refused: User:collector is not authorized")
          .contains("quotaflow.samples", KafkaRefusal.ACLS_DOC);
    } finally {
      grant("collector");
    }
  }

  @Test
  @Order(4)
  void theEnforcerWithoutItsAclsStopsNamingTheTopic() throws Exception {
    PlainFileTree tree = PlainFileTree.v1(dir.resolve("cgroup-refused-enforcer"), "qf").v1Task("qf", TASK);
    revoke("enforcer");
    try (Running enforcer = startEnforcer(tree)) {
      assertThat(enforcer.awaitExit()).isEqualTo(ProcessCommandLine.FAILURE);
      String last = enforcer.output().strip().lines().reduce((a, b) -> b).orElseThrow();
      System.out.println("enforcer without ACLs: " + last);
      assertThat(last).startsWith("quotaflow enforcer: stopped: User:enforcer is not authorized to use topic")
          .contains("quotaflow.cpu-decisions", KafkaRefusal.ACLS_DOC);
      assertThat(enforcer.output()).doesNotContain("\tat ");
    } finally {
      grant("enforcer");
    }
  }

  /** Without the group or transactional-id ACL Kafka Streams would replace its failed thread forever. */
  @Test
  @Order(5)
  void theStreamsAppWithoutAnyOfItsAclsStopsNamingWhatItWasRefused() throws Exception {
    Map<String, ResourceType> withheld = new LinkedHashMap<>();
    withheld.put("consumer group " + APP_ID, ResourceType.GROUP);
    withheld.put("its transactional id", ResourceType.TRANSACTIONAL_ID);
    withheld.put("topic", ResourceType.TOPIC);
    for (Map.Entry<String, ResourceType> missing : withheld.entrySet()) {
      revoke("streams");
      List<AclBinding> rest = ACLS.get("streams").stream().filter(acl -> acl.pattern().resourceType() != missing.getValue()).toList();
      try {
        apply("streams", rest);
        try (Running streams = startStreams()) {
          assertThat(streams.awaitExit()).isEqualTo(ProcessCommandLine.FAILURE);
          String last = streams.output().strip().lines().reduce((a, b) -> b).orElseThrow();
          System.out.println("streams app without its " + missing.getValue() + " ACLs: " + last);
          assertThat(last).startsWith("quotaflow streams: ").contains("User:streams is not authorized to use " + missing.getKey(),
              KafkaRefusal.ACLS_DOC);
        }
      } finally {
        revoke("streams", rest.size());
        grant("streams");
      }
    }
  }

  @Test
  @Order(6)
  void theRegistryClientIsRefusedClearlyWithWrongCredentialsOrAnUntrustedCertificate() throws Exception {
    Path wrongPassword = configFile("operator", kafka.clientConfig("operator"), "registry-user:wrong", tls.trustStore());
    OperatorRun set = operatorWith(wrongPassword, "spec", "set", "node-b/t", "ncpus=1");
    OperatorRun show = operatorWith(wrongPassword, "spec", "show");
    System.out.println("registry, wrong password: " + set.err().strip() + " | " + show.err().strip());
    assertThat(set.exitCode()).isEqualTo(ProcessCommandLine.FAILURE);
    assertThat(set.err().lines()).singleElement().asString().startsWith("quotaflow spec set: ")
        .contains("the schema registry at " + registry.url() + " refused the credentials; check basic.auth.user.info");
    assertThat(show.exitCode()).isEqualTo(ProcessCommandLine.FAILURE);
    assertThat(show.err().lines()).singleElement().asString().startsWith("quotaflow spec show: cannot decode a record of"
        + " quotaflow.task-specs: the schema registry at " + registry.url() + " refused the credentials; check basic.auth.user.info");

    // No trust store: the JVM's default CAs do not know the test's certificate.
    Path untrusted = configFile("operator", kafka.clientConfig("operator"), REGISTRY_USER, null);
    long started = System.nanoTime();
    OperatorRun unknownCa = operatorWith(untrusted, "spec", "set", "node-b/t", "ncpus=1");
    System.out.printf("registry, untrusted certificate (%d ms): %s%n", (System.nanoTime() - started) / 1_000_000,
        unknownCa.err().strip());
    assertThat(unknownCa.exitCode()).isEqualTo(ProcessCommandLine.FAILURE);
    assertThat(unknownCa.err().lines()).singleElement().asString()
        .contains("TLS handshake with the schema registry at " + registry.url() + " failed",
            "does schema.registry.ssl.truststore.location hold its certificate's CA?");
  }

  @Test
  @Order(7)
  void aWrongKafkaPasswordIsOneLineNamingTheUser() throws Exception {
    Map<String, Object> wrong = new HashMap<>(kafka.clientConfig("operator"));
    wrong.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"operator\" password=\"wrong\";");
    OperatorRun show = operatorWith(configFile("operator", wrong, REGISTRY_USER, tls.trustStore()), "cluster", "show");
    System.out.println("kafka, wrong password: " + show.err().strip());
    assertThat(show.exitCode()).isEqualTo(ProcessCommandLine.FAILURE);
    assertThat(show.err().lines()).singleElement().asString()
        .startsWith("quotaflow cluster show: Kafka at " + kafka.bootstrapServers() + " refused: Kafka refused the login of User:operator")
        .contains("check sasl.jaas.config");
  }

  private static void assertOneClearLine(String err, String start, String topic) {
    assertThat(err.lines()).singleElement().asString().startsWith(start)
        .contains("User:operator is not authorized to use topic " + topic, KafkaRefusal.ACLS_DOC);
  }

  // --- the components, in this JVM, each with its own --kafka-config file

  private Running startStreams() {
    StreamsCommand command = new StreamsCommand();
    return Running.start("streams", command, command::requestStop, "--kafka-config", CONFIG_FILES.get("streams").toString(),
        "--partitions", "2", "--application-id", APP_ID, "--state-dir", dir.resolve("streams-state").toString(),
        "--http-host", "127.0.0.1", "--http-port", "0", "--commit-interval", "100ms");
  }

  private Running startCollector(PlainFileTree tree) {
    CollectorCommand command = new CollectorCommand();
    return Running.start("collector", command, command::requestStop, "--kafka-config", CONFIG_FILES.get("collector").toString(),
        "--node", NODE, "--cgroup-root", tree.root.toString(), "--layout", "v1", "--parent", "/qf", "--period", "200ms",
        "--http-host", "127.0.0.1", "--http-port", "0");
  }

  private Running startEnforcer(PlainFileTree tree) {
    EnforcerCommand command = new EnforcerCommand();
    return Running.start("enforcer", command, command::requestStop, "--kafka-config", CONFIG_FILES.get("enforcer").toString(),
        "--node", NODE, "--cgroup-root", tree.root.toString(), "--layout", "v1", "--parent", "/qf",
        "--state-file", dir.resolve("enforcer-state.json").toString(), "--http-host", "127.0.0.1", "--http-port", "0");
  }

  record OperatorRun(int exitCode, String out, String err) {
    OperatorRun expectOk() {
      assertThat(exitCode).as("exit code; out: %s, err: %s", out, err).isZero();
      return this;
    }
  }

  private static OperatorRun operator(String... args) {
    return operatorWith(CONFIG_FILES.get("operator"), args);
  }

  private static OperatorRun operatorWith(Path kafkaConfig, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine line = new CommandLine(new QuotaflowCli()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--kafka-config", kafkaConfig.toString()));
    int code = QuotaflowCli.execute(line, all.toArray(String[]::new));
    return new OperatorRun(code, out.toString(), err.toString());
  }

  /** A process command run on a thread of this JVM, its output captured, stopped through its own stop hook. */
  static final class Running implements AutoCloseable {
    private final String name;
    private final Writer output;
    private final CompletableFuture<Integer> exit;
    private final Runnable stop;

    private Running(String name, Writer output, CompletableFuture<Integer> exit, Runnable stop) {
      this.name = name;
      this.output = output;
      this.exit = exit;
      this.stop = stop;
    }

    static Running start(String name, Object command, Runnable stop, String... args) {
      StringWriter output = new StringWriter();
      PrintWriter printer = new PrintWriter(output, true);
      CommandLine line = ProcessCommandLine.of(command).setOut(printer).setErr(printer);
      CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> line.execute(args));
      return new Running(name, output, exit, stop);
    }

    String output() {
      synchronized (output) {
        return output.toString();
      }
    }

    void awaitOutput(String text) {
      KafkaWait.until(PATIENCE, name + " to print '" + text + "' (output: " + output() + ")",
          () -> output().contains(text) || exit.isDone());
      assertThat(output()).as(name + " output").contains(text);
    }

    /** The exit code of a command that ends by itself within the patience. */
    int awaitExit() throws Exception {
      return exit.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() throws Exception {
      stop.run();
      exit.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  // --- ACLs and files

  private static ResourcePattern topic(String name) {
    return new ResourcePattern(ResourceType.TOPIC, name, PatternType.LITERAL);
  }

  private static AclBinding allow(String user, ResourcePattern resource, AclOperation operation) {
    return new AclBinding(resource, new AccessControlEntry("User:" + user, "*", operation, AclPermissionType.ALLOW));
  }

  private static void grant(String component) throws Exception {
    apply(component, ACLS.get(component));
  }

  /** Creates {@code acls} and waits until the broker's authorizer holds them all. */
  private static void apply(String component, List<AclBinding> acls) throws Exception {
    try (Admin admin = Admin.create(kafka.clientConfig())) {
      if (!acls.isEmpty()) {
        admin.createAcls(acls).all().get(30, TimeUnit.SECONDS);
      }
      awaitAclCount(admin, component, acls.size());
    }
  }

  private static void revoke(String component) throws Exception {
    revoke(component, ACLS.get(component).size());
  }

  /** Deletes every ACL of {@code component} (it had {@code had}) and waits until the authorizer holds none. */
  private static void revoke(String component, int had) throws Exception {
    try (Admin admin = Admin.create(kafka.clientConfig())) {
      Collection<AclBinding> deleted = admin.deleteAcls(List.of(aclsOf(component))).all().get(30, TimeUnit.SECONDS);
      assertThat(deleted).hasSize(had);
      awaitAclCount(admin, component, 0);
    }
  }

  private static AclBindingFilter aclsOf(String component) {
    return new AclBindingFilter(ResourcePatternFilter.ANY,
        new AccessControlEntryFilter("User:" + component, null, AclOperation.ANY, AclPermissionType.ANY));
  }

  /** ACL changes reach the broker's authorizer through the metadata log, a moment after the controller took them. */
  private static void awaitAclCount(Admin admin, String component, int count) {
    KafkaWait.until(PATIENCE, count + " ACLs of " + component + " in the broker's authorizer", () -> {
      try {
        return admin.describeAcls(aclsOf(component)).values().get(30, TimeUnit.SECONDS).size() == count;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
  }

  /** What an operator writes for {@code --kafka-config}: the Kafka client's security settings and the registry's. */
  private static Path configFile(String component, Map<String, Object> kafkaConfig, String registryUser, Path trustStore)
      throws IOException {
    Properties props = new Properties();
    kafkaConfig.forEach((key, value) -> props.setProperty(key, value.toString()));
    props.setProperty(RegistryClientConfig.URL, registry.url());
    props.setProperty(RegistryClientConfig.BASIC_AUTH_SOURCE, "USER_INFO");
    props.setProperty(RegistryClientConfig.BASIC_AUTH_USER_INFO, registryUser);
    if (trustStore != null) {
      props.setProperty(RegistryClientConfig.TRUSTSTORE_LOCATION, trustStore.toString());
      props.setProperty(RegistryClientConfig.TRUSTSTORE_PASSWORD, tls.password());
      props.setProperty(RegistryClientConfig.TRUSTSTORE_TYPE, "PKCS12");
    }
    Path file = dir.resolve(component + "-" + System.nanoTime() + ".properties");
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      props.store(out, component);
    }
    return file;
  }

  private static int recordCount(String topic) {
    Map<String, Object> config = new HashMap<>(kafka.clientConfig());
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
          .map(p -> new TopicPartition(topic, p.partition())).toList();
      return consumer.endOffsets(partitions).values().stream().mapToInt(Long::intValue).sum();
    }
  }
}
