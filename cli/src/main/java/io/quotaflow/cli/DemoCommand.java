package io.quotaflow.cli;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.CgroupParent;
import io.quotaflow.cgroups.Cgroups;
import io.quotaflow.cli.demo.DecisionWatch;
import io.quotaflow.cli.demo.DemoCgroups;
import io.quotaflow.cli.demo.DemoLogging;
import io.quotaflow.cli.demo.DemoSpecs;
import io.quotaflow.cli.demo.DemoTask;
import io.quotaflow.cli.demo.LiveTable;
import io.quotaflow.cli.demo.NodeStack;
import io.quotaflow.cli.demo.StatusPage;
import io.quotaflow.cli.demo.TaskBoard;
import io.quotaflow.process.Durations;
import io.quotaflow.embedded.BrokerSettings;
import io.quotaflow.embedded.Directories;
import io.quotaflow.embedded.EmbeddedPair;
import io.quotaflow.enforcer.ControlDelay;
import io.quotaflow.process.NodeOptions;
import io.quotaflow.process.ProcessException;
import io.quotaflow.process.ProcessLifecycle;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.Enforcement;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import io.quotaflow.schemas.registry.SchemaRegistryClients;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code quotaflow demo}: the whole pipeline for this node in one process (embedded broker and
 * registry, streams app, collector, enforcer), driving four CPU tasks and three stepping memory
 * allocators in a burst and a relaxed pool on real cgroups when they are writable, else on a simulated
 * tree, with a live table of the tasks and the pools until Ctrl-C or {@code --duration} (docs/demo.md).
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = {"Run the whole pipeline for this node in one process on seven demo tasks in two pools and show what it decides and does.",
        "On real cgroups when writable (root), else on a simulated cgroup tree (it says which). Ctrl-C stops it and cleans up.",
        "Example: sudo ./quotaflow demo --duration 2m"})
final class DemoCommand implements Callable<Integer> {

  static final int DEFAULT_HTTP_PORT = 9400;
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration SAMPLE_PERIOD = Duration.ofSeconds(1);
  /** Decisions become visible at each commit of the streams app's transactions. */
  private static final Duration COMMIT_INTERVAL = Duration.ofMillis(200);
  private static final Duration TERMINAL_REFRESH = Duration.ofSeconds(1);
  private static final Duration PLAIN_REFRESH = Duration.ofSeconds(5);

  @Option(names = "--duration", paramLabel = "DURATION", converter = Durations.Positive.class,
      description = "Stop by itself after this long, e.g. 90s or 5m (default: run until Ctrl-C).")
  Duration duration;

  @Option(names = "--refresh", paramLabel = "DURATION", converter = Durations.Positive.class,
      description = "How often the table is printed (default: 1s on a terminal, redrawn in place; 5s otherwise, as plain lines).")
  Duration refresh;

  @Option(names = "--simulate",
      description = "Use the simulated cgroup tree even where real cgroups are writable.")
  boolean simulate;

  @Option(names = "--dry-run",
      description = "Publish the cluster config with enforcement DRY_RUN: decisions are made and reported, no cgroup value is written.")
  boolean dryRun;

  @Option(names = "--port", paramLabel = "PORT",
      description = "Kafka client port (default: " + BrokerCommand.DEFAULT_KAFKA_PORT + " when free, else a free port; 0: any free port).")
  Integer port;

  @Option(names = "--registry-port", paramLabel = "PORT",
      description = "Schema registry port (default: " + BrokerCommand.DEFAULT_REGISTRY_PORT + " when free, else a free port; 0: any free port).")
  Integer registryPort;

  @Option(names = "--http-port", paramLabel = "PORT",
      description = "Status page, /metrics and /health (default: " + DEFAULT_HTTP_PORT + " when free, else a free port; 0: any free port).")
  Integer httpPort;

  @Option(names = "--host", paramLabel = "HOST", defaultValue = "localhost",
      description = "Host the broker, registry and status page listen on and advertise (default: ${DEFAULT-VALUE}).")
  String host;

  @Option(names = "--node", paramLabel = "NODE",
      description = "This node's id (default: the host name up to its first dot, made a valid id, as the collector and enforcer take it).")
  String node;

  @Option(names = "--parent", paramLabel = "NAME", defaultValue = CgroupParent.DEFAULT_NAME,
      description = "Parent of the demo's groups, under this process's own group in each hierarchy (default: ${DEFAULT-VALUE}).")
  String parent;

  @Option(names = "--cgroup-root", paramLabel = "DIR", defaultValue = "/sys/fs/cgroup",
      description = "Where the cgroup hierarchies are mounted (default: ${DEFAULT-VALUE}).")
  Path cgroupRoot;

  @Option(names = "--partitions", paramLabel = "N", defaultValue = "" + Topics.DEFAULT_PARTITIONS,
      description = "Partitions of every node-keyed topic (default: ${DEFAULT-VALUE}).")
  int partitions;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  private final ProcessLifecycle lifecycle = new ProcessLifecycle("demo", STOP_TIMEOUT);

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Duration stopAfter = duration;
    boolean terminal = System.console() != null;
    Duration printEvery = refresh != null ? refresh : terminal ? TERMINAL_REFRESH : PLAIN_REFRESH;
    String nodeId = nodeId();
    CgroupConfig realCgroups = realCgroups();
    if (terminal) {
      DemoLogging.quietForTerminal();
    }
    // Registered first, so a Ctrl-C during start-up also waits for the clean stop.
    ProcessLifecycle.Running running = lifecycle.begin();
    Deque<AutoCloseable> opened = new ArrayDeque<>();
    long startedNanos = System.nanoTime();
    Failure failure = new Failure();
    DecisionWatch watch = null;
    DemoCgroups cgroups = null;
    PrometheusMeterRegistry meters = null;
    try {
      int kafkaPort = port(BrokerCommand.DEFAULT_KAFKA_PORT, "--port", port, err);
      int schemaPort = port(BrokerCommand.DEFAULT_REGISTRY_PORT, "--registry-port", registryPort, err);
      int opsPort = port(DEFAULT_HTTP_PORT, "--http-port", httpPort, err);

      cgroups = DemoCgroups.open(simulate, realCgroups, DemoTask.ALL);
      opened.push(cgroups);
      out.println("Mode              " + cgroups.modeLine());
      if (!cgroups.pids().isEmpty()) {
        out.println("Workloads         " + describePids(cgroups.pids()));
      }
      out.flush();

      EmbeddedPair pair = EmbeddedPair.start(
          BrokerSettings.defaults().withHost(host).withPort(kafkaPort),
          registry -> registry.withHost(host).withPort(schemaPort));
      opened.push(pair);
      out.println("Kafka bootstrap   " + pair.bootstrapServers());
      out.println("Schema registry   " + pair.registryUrl());
      out.println("Node              " + nodeId + " (starting the streams app, collector and enforcer...)");
      out.flush();

      Path workDir = Directories.temporary("quotaflow-demo-");
      opened.push(() -> Directories.deleteRecursively(workDir));
      Map<String, Object> client = Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, pair.bootstrapServers());
      SchemaRegistryClient registry = SchemaRegistryClients.create(pair.registryUrl());
      Topics.Settings topicSettings = new Topics.Settings(Topics.DEFAULT_PREFIX, partitions, true);
      meters = OpsServer.newRegistry("demo");
      NodeStack stack = NodeStack.start(new NodeStack.Settings(client, topicSettings, nodeId, cgroups.config(), workDir,
          SAMPLE_PERIOD, COMMIT_INTERVAL), registry, meters);
      opened.push(stack);

      Topics topics = Topics.create(topicSettings, registry);
      publishSpecs(new ConfigTopics(client), topics, nodeId, dryRun ? Enforcement.DRY_RUN : Enforcement.ON);
      watch = DecisionWatch.start(client, topics, nodeId);
      opened.push(watch);
      TaskBoard board = new TaskBoard(Cgroups.open(cgroups.config()), DemoTask.ALL, DemoSpecs.pools(), watch);
      opened.push(board);

      String headline = cgroups.modeLine() + "; Kafka " + pair.bootstrapServers() + ", registry " + pair.registryUrl();
      LiveTable table = new LiveTable(out, board, printEvery, startedNanos);
      OpsServer ops = OpsServer.start(host, opsPort, meters, stack.streams()::health,
          Map.of("/", StatusPage.handler(() -> headline, table::rows)));
      opened.push(ops);
      String page = "http://" + host + ":" + ops.port();
      out.println("Status page       " + page + "/  (metrics " + page + "/metrics, health " + page + "/health)");
      out.printf("Ready in %.1f s. %s%n", (System.nanoTime() - startedNanos) / 1e9,
          stopAfter == null ? "Ctrl-C stops it and removes everything it created."
              : "Stops after " + Durations.format(stopAfter) + " (or Ctrl-C) and removes everything it created.");
      out.flush();
      table.run(terminal ? header(cgroups, pair, nodeId, page) : null, lifecycle, stopAfter);
      out.println("Stopping...");
      out.flush();
    } catch (IllegalArgumentException e) {
      failure.add(new CliException(e.getMessage(), e));
    } catch (IllegalStateException | UncheckedIOException | KafkaException | IOException e) {
      failure.add(new CliException("cannot run: " + ProcessException.rootMessage(e), e));
    } catch (Exception e) {
      failure.add(e);
    } finally {
      long decisions = watch == null ? 0 : watch.decisionCount();
      long applied = watch == null ? 0 : watch.appliedCount();
      long freezes = watch == null ? 0 : watch.freezeCount();
      long thaws = watch == null ? 0 : watch.thawCount();
      // Read before the enforcer closes: its figure for this run, if this build's enforcer measures it.
      String controlDelay = meters == null ? "" : ControlDelay.of(meters, EnforcementKind.FREEZE)
          .map(d -> "sample → freeze decision applied " + d.summary() + "; ").orElse("");
      boolean real = cgroups instanceof DemoCgroups.Real;
      closeAll(opened, failure);
      try {
        if (failure.first == null) {
          out.printf("Stopped after %d s: %d CPU decisions seen, %d applied; %d freezes, %d thaws; %s%s%n",
              TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startedNanos), decisions, applied, freezes, thaws,
              controlDelay, real ? "workloads killed, demo groups removed." : "simulated cgroup tree removed.");
          out.flush();
        }
      } finally {
        running.close();
      }
    }
    failure.rethrow();
    return 0;
  }

  /** The first failure wins; later ones (while cleaning up) are attached to it. */
  private static final class Failure {
    Exception first;

    void add(Exception e) {
      if (first == null) {
        first = e;
      } else {
        first.addSuppressed(e);
      }
    }

    void rethrow() throws Exception {
      if (first != null) {
        throw first;
      }
    }
  }

  private static void closeAll(Deque<AutoCloseable> opened, Failure failure) {
    while (!opened.isEmpty()) {
      AutoCloseable next = opened.pop();
      try {
        next.close();
      } catch (Exception e) {
        failure.add(e instanceof IOException ? new CliException("cleanup: " + e.getMessage(), e) : e);
      }
    }
  }

  private static String header(DemoCgroups cgroups, EmbeddedPair pair, String nodeId, String page) {
    return "quotaflow demo on node " + nodeId + ": " + cgroups.modeLine() + "\n"
        + "Kafka " + pair.bootstrapServers() + "   registry " + pair.registryUrl() + "   status " + page + "/\n"
        + "Ctrl-C stops it and removes everything it created.\n\n";
  }

  private static void publishSpecs(ConfigTopics io, Topics topics, String nodeId, Enforcement enforcement) {
    io.publish(topics.clusterConfig(), DemoSpecs.CLUSTER, DemoSpecs.cluster(enforcement));
    for (PoolConfig pool : DemoSpecs.pools()) {
      io.publish(topics.poolConfigs(), pool.getPool(), pool);
    }
    long now = System.currentTimeMillis();
    for (DemoTask task : DemoTask.ALL) {
      io.publish(topics.taskSpecs(), TaskKey.keyOf(nodeId, task.name()), DemoSpecs.spec(nodeId, task, now));
    }
  }

  private static String describePids(Map<String, Long> pids) {
    StringBuilder text = new StringBuilder();
    pids.forEach((task, pid) -> text.append(text.length() == 0 ? "" : ", ").append(task).append(" pid ").append(pid));
    return text.toString();
  }

  private int port(int preferred, String option, Integer given, PrintWriter err) {
    return BrokerCommand.choosePort(host, option, given, preferred, err);
  }

  // The collector's and the enforcer's rule, so the demo's node id is the one they would take here.
  private String nodeId() {
    return NodeOptions.nodeId(node, "--node");
  }

  private CgroupConfig realCgroups() throws IOException {
    try {
      return new CgroupConfig(cgroupRoot, CgroupLayout.AUTO, CgroupParent.underOwnGroup(parent));
    } catch (IllegalArgumentException e) {
      throw new CliException("--parent: " + e.getMessage(), e);
    }
  }

  /** Asks a running {@link #call} to stop, as Ctrl-C does. */
  void requestStop() {
    lifecycle.requestStop();
  }
}
