package io.quotaflow.collector;

import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupLayout;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * The collector as a process of its own, without the {@code quotaflow} command:
 * {@code java -cp quotaflow.jar io.quotaflow.collector.CollectorMain --node n1 --bootstrap ...}.
 * It takes the flags and environment variables of {@code quotaflow collector} (docs/collector.md)
 * and runs until SIGTERM or Ctrl-C.
 */
public final class CollectorMain {

  /** Flag, environment variable, default (null: none), help. */
  private record Flag(String name, String env, String fallback, String help) {}

  private static final List<Flag> FLAGS = List.of(
      new Flag("--node", "QUOTAFLOW_NODE", null, "node id (default: the host name up to its first dot)"),
      new Flag("--cgroup-root", "QUOTAFLOW_CGROUP_ROOT", CgroupConfig.DEFAULT_ROOT.toString(), "where the cgroup hierarchies are mounted"),
      new Flag("--parent", "QUOTAFLOW_CGROUP_PARENT", null,
          "parent of the task groups: a name under this process's own group, or an absolute cgroup path (default: quotaflow)"),
      new Flag("--layout", "QUOTAFLOW_CGROUP_LAYOUT", "auto", "v1, v2 or auto"),
      new Flag("--period", "QUOTAFLOW_PERIOD", "1s", "sampling period"),
      new Flag("--node-status-period", "QUOTAFLOW_NODE_STATUS_PERIOD", "1m", "period of NodeStatus records"),
      new Flag("--buffer", "QUOTAFLOW_BUFFER", Integer.toString(CollectorSettings.DEFAULT_BUFFER_CAPACITY),
          "records kept while the broker is away before the oldest are dropped"),
      new Flag("--memory-stat-every", "QUOTAFLOW_MEMORY_STAT_EVERY", Integer.toString(CollectorSettings.DEFAULT_MEMORY_STAT_EVERY),
          "read memory.stat at least every N rounds, and whenever a group's usage moved by over 1 % (1: every round)"),
      new Flag("--ops-host", "QUOTAFLOW_OPS_HOST", CollectorSettings.DEFAULT_OPS_HOST, "address of /metrics and /health"),
      new Flag("--ops-port", "QUOTAFLOW_OPS_PORT", Integer.toString(CollectorSettings.DEFAULT_OPS_PORT), "port of /metrics and /health"),
      new Flag("--bootstrap", "QUOTAFLOW_BOOTSTRAP", "localhost:9092", "Kafka bootstrap servers"),
      new Flag("--registry", "QUOTAFLOW_REGISTRY", "http://localhost:8081", "schema registry URL(s), comma-separated"),
      new Flag("--kafka-config", "QUOTAFLOW_KAFKA_CONFIG", null, "properties file merged into every Kafka and registry client"),
      new Flag("--topic-prefix", "QUOTAFLOW_TOPIC_PREFIX", Topics.DEFAULT_PREFIX, "prefix of every topic name"),
      new Flag("--partitions", "QUOTAFLOW_PARTITIONS", Integer.toString(Topics.DEFAULT_PARTITIONS),
          "partitions of node-keyed topics created when missing"));

  private CollectorMain() {}

  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
    PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
    System.exit(run(args, System.getenv()::get, out, err));
  }

  static int run(String[] args, Function<String, String> env, PrintWriter out, PrintWriter err) {
    Map<String, String> values;
    try {
      values = parse(args, env);
    } catch (IllegalArgumentException e) {
      err.println("quotaflow collector: " + e.getMessage());
      return 2;
    }
    if (values.containsKey("--help")) {
      out.println("Usage: java -cp quotaflow.jar io.quotaflow.collector.CollectorMain [--flag value]...");
      for (Flag flag : FLAGS) {
        out.printf("  %-22s %s (env %s%s)%n", flag.name(), flag.help(), flag.env(),
            flag.fallback() == null ? "" : "; default " + flag.fallback());
      }
      return 0;
    }
    try {
      Map<String, Object> client = clientProperties(values.get("--kafka-config"), values.get("--bootstrap"));
      Map<String, Object> registryProps = new HashMap<>(client);
      registryProps.put(RegistryClientConfig.URL, values.get("--registry"));
      SchemaRegistryClient registry = SchemaRegistryClients.create(registryProps);
      Topics topics = Topics.create(new Topics.Settings(values.get("--topic-prefix"),
          number(values, "--partitions"), true), registry);
      String node = values.get("--node") != null ? values.get("--node") : CollectorFlags.defaultNode();
      CgroupConfig cgroups = new CgroupConfig(Path.of(values.get("--cgroup-root")),
          CgroupLayout.parse(values.get("--layout")), CollectorFlags.parent(values.get("--parent")));
      CollectorSettings settings = CollectorSettings.defaults(node, cgroups)
          .withPeriod(Periods.parse(values.get("--period")))
          .withNodeStatusPeriod(Periods.parse(values.get("--node-status-period")))
          .withBufferCapacity(number(values, "--buffer"))
          .withMemoryStatEvery(number(values, "--memory-stat-every"))
          .withOps(values.get("--ops-host"), number(values, "--ops-port"));
      return runUntilStopped(settings, client, topics, out, err);
    } catch (IllegalArgumentException | IOException e) {
      err.println("quotaflow collector: " + e.getMessage());
      return 2;
    }
  }

  /**
   * Starts a collector and runs it until the JVM is asked to stop (SIGTERM, Ctrl-C), then stops
   * it cleanly before the JVM exits. A start-up failure is printed as one line; returns the exit code.
   */
  public static int runUntilStopped(CollectorSettings settings, Map<String, Object> clientProperties, Topics topics,
      PrintWriter out, PrintWriter err) {
    CountDownLatch stopRequested = new CountDownLatch(1);
    CountDownLatch stopped = new CountDownLatch(1);
    // Registered before start, so a signal during start-up also waits for the clean stop.
    Thread hook = new Thread(() -> {
      stopRequested.countDown();
      try {
        stopped.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "quotaflow-collector-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try (Collector collector = Collector.start(settings, clientProperties, topics)) {
      out.printf("Collector for node %s: sampling every %s, publishing to %s; /metrics and /health on %s:%d%n",
          settings.node(), Periods.format(settings.period()), topics.samples().name(), settings.opsHost(),
          collector.opsPort());
      out.flush();
      stopRequested.await();
      return 0;
    } catch (CollectorException e) {
      err.println("quotaflow collector: " + e.getMessage());
      err.flush();
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    } finally {
      stopped.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the JVM is exiting: the hook runs and waits for `stopped`
      }
    }
  }

  /** Flags (as {@code --flag value} or {@code --flag=value}) over environment variables over defaults. */
  static Map<String, String> parse(String[] args, Function<String, String> env) {
    Map<String, String> values = new LinkedHashMap<>();
    for (Flag flag : FLAGS) {
      String fromEnv = env.apply(flag.env());
      values.put(flag.name(), fromEnv != null && !fromEnv.isBlank() ? fromEnv : flag.fallback());
    }
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--help") || arg.equals("-h")) {
        values.put("--help", "");
        continue;
      }
      int eq = arg.indexOf('=');
      String name = eq > 0 ? arg.substring(0, eq) : arg;
      if (!values.containsKey(name)) {
        throw new IllegalArgumentException("unknown option " + name + " (try --help)");
      }
      if (eq > 0) {
        values.put(name, arg.substring(eq + 1));
      } else if (i + 1 < args.length) {
        values.put(name, args[++i]);
      } else {
        throw new IllegalArgumentException("option " + name + " needs a value");
      }
    }
    return values;
  }

  private static int number(Map<String, String> values, String flag) {
    try {
      return Integer.parseInt(values.get(flag).trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(flag + " must be a whole number, not '" + values.get(flag) + "'");
    }
  }

  private static Map<String, Object> clientProperties(String kafkaConfig, String bootstrap) throws IOException {
    Map<String, Object> props = new HashMap<>();
    if (kafkaConfig != null) {
      Properties file = new Properties();
      try (Reader in = Files.newBufferedReader(Path.of(kafkaConfig), StandardCharsets.UTF_8)) {
        file.load(in);
      } catch (IOException e) {
        throw new IOException("cannot read --kafka-config " + kafkaConfig + ": " + e.getMessage(), e);
      }
      file.forEach((k, v) -> props.put(k.toString(), v));
    }
    props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    return props;
  }
}
