package io.quotaflow.collector;

import io.quotaflow.process.Durations;
import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.process.ClusterConnection;
import io.quotaflow.process.Environment;
import io.quotaflow.process.NodeOptions;
import io.quotaflow.process.OpsAddress;
import io.quotaflow.process.ProcessCommandLine;
import io.quotaflow.process.ProcessLifecycle;
import io.quotaflow.process.QuotaflowVersion;
import io.quotaflow.process.UsageException;
import io.quotaflow.process.Warnings;
import io.quotaflow.schemas.Topics;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The node collector, until Ctrl-C or SIGTERM: {@code quotaflow collector} and
 * {@link CollectorMain} run this same command.
 */
@Command(
    name = "collector",
    mixinStandardHelpOptions = true, versionProvider = QuotaflowVersion.class,
    description = {
        "Sample this node's task cgroups every period and publish a CgroupSample for each.",
        "Also a GONE sample when a group disappears, and NodeStatus at start and every minute.",
        "While the broker is away, samples wait in a bounded buffer (the oldest are dropped when it is full).",
        "Serves /metrics and /health. See docs/collector.md."})
public final class CollectorCommand implements Callable<Integer> {

  @Mixin
  ClusterConnection connection;

  @Mixin
  NodeOptions node;

  @Option(names = "--period", defaultValue = "${env:QUOTAFLOW_PERIOD:-1s}", paramLabel = "DURATION",
      description = "Sampling period, e.g. 1s, 500ms (env QUOTAFLOW_PERIOD; default ${DEFAULT-VALUE}).")
  String period;

  @Option(names = "--node-status-period", defaultValue = "${env:QUOTAFLOW_NODE_STATUS_PERIOD:-1m}", paramLabel = "DURATION",
      description = "Period of NodeStatus records (env QUOTAFLOW_NODE_STATUS_PERIOD; default ${DEFAULT-VALUE}).")
  String nodeStatusPeriod;

  @Option(names = "--buffer", defaultValue = "${env:QUOTAFLOW_BUFFER:-" + CollectorSettings.DEFAULT_BUFFER_CAPACITY + "}",
      paramLabel = "RECORDS",
      description = "Records kept while the broker is away before the oldest are dropped (env QUOTAFLOW_BUFFER;"
          + " default ${DEFAULT-VALUE}: 5 minutes of 500 groups at 1 Hz, ~15 MB).")
  int buffer;

  @Option(names = "--memory-stat-every",
      defaultValue = "${env:QUOTAFLOW_MEMORY_STAT_EVERY:-" + CollectorSettings.DEFAULT_MEMORY_STAT_EVERY + "}", paramLabel = "N",
      description = "Read memory.stat (anonymous memory, the costliest file) at least every N rounds, and whenever a"
          + " group's usage moved by more than 1 %%; 1 reads it every round (env QUOTAFLOW_MEMORY_STAT_EVERY;"
          + " default ${DEFAULT-VALUE}).")
  int memoryStatEvery;

  @Option(names = "--http-host", paramLabel = "HOST",
      description = "Address of /metrics and /health (env QUOTAFLOW_COLLECTOR_HTTP_HOST, QUOTAFLOW_OPS_HOST and"
          + " QUOTAFLOW_HTTP_HOST deprecated; default " + CollectorSettings.DEFAULT_OPS_HOST + ").")
  String httpHost;

  @Option(names = "--http-port", paramLabel = "PORT",
      description = "Port of /metrics and /health, 0 for any free one (env QUOTAFLOW_COLLECTOR_HTTP_PORT, QUOTAFLOW_OPS_PORT"
          + " and QUOTAFLOW_HTTP_PORT deprecated; default " + CollectorSettings.DEFAULT_OPS_PORT + ").")
  Integer httpPort;

  @Option(names = "--ops-host", paramLabel = "HOST", hidden = true, description = "Deprecated: --http-host.")
  String opsHost;

  @Option(names = "--ops-port", paramLabel = "PORT", hidden = true, description = "Deprecated: --http-port.")
  Integer opsPort;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  Environment environment = Environment.system();

  /** Stopping hands on what was buffered (5 s) and lets the producer deliver (5 s more). */
  private final ProcessLifecycle lifecycle = new ProcessLifecycle("collector", Duration.ofSeconds(30));

  @Override
  public Integer call() {
    CollectorSettings settings;
    OpsAddress ops = opsAddress(Warnings.of(spec));
    String nodeId = node.node();
    CgroupConfig cgroups = node.cgroupConfig();
    try {
      settings = CollectorSettings.defaults(nodeId, cgroups)
          .withPeriod(Durations.parse(period))
          .withNodeStatusPeriod(Durations.parse(nodeStatusPeriod))
          .withBufferCapacity(buffer)
          .withMemoryStatEvery(memoryStatEvery)
          .withOps(ops.host(), ops.port());
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage(), e);
    }
    var registry = connection.registryClient();
    Topics topics = connection.topics(registry);
    return run(settings, connection.clientProperties(), topics, spec.commandLine().getOut());
  }

  /** {@code --http-*}, else the deprecated {@code --ops-*} with a warning, else the variables, else the defaults. */
  OpsAddress opsAddress(Warnings warnings) {
    String host = httpHost;
    Integer port = httpPort;
    if (host == null && opsHost != null) {
      warnings.deprecatedFlag("--ops-host", "--http-host");
      host = opsHost;
    }
    if (port == null && opsPort != null) {
      warnings.deprecatedFlag("--ops-port", "--http-port");
      port = opsPort;
    }
    return OpsAddress.resolve("collector", host, port,
        new OpsAddress(CollectorSettings.DEFAULT_OPS_HOST, CollectorSettings.DEFAULT_OPS_PORT), environment, warnings,
        "QUOTAFLOW_OPS_", "QUOTAFLOW_HTTP_");
  }

  /** Asks a running command to stop, as Ctrl-C does. */
  public void requestStop() {
    lifecycle.requestStop();
  }

  /**
   * Starts a collector and runs it until asked to stop (SIGTERM, Ctrl-C), then stops it cleanly
   * before the JVM exits. A start-up failure is a {@link CollectorException}: one line, exit 1.
   */
  private int run(CollectorSettings settings, Map<String, Object> clientProperties, Topics topics, PrintWriter out) {
    try (ProcessLifecycle.Running running = lifecycle.begin();
        Collector collector = Collector.start(settings, clientProperties, topics)) {
      out.printf("Collector for node %s: sampling every %s, publishing to %s; /metrics and /health on %s:%d%n",
          settings.node(), Durations.format(settings.period()), topics.samples().name(), settings.opsHost(),
          collector.opsPort());
      out.flush();
      lifecycle.awaitStopRequest();
      return ProcessCommandLine.OK;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ProcessCommandLine.FAILURE;
    }
  }
}
