package io.quotaflow.streams;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.process.ConnectionOptions;
import io.quotaflow.process.Durations;
import io.quotaflow.process.Environment;
import io.quotaflow.process.OpsAddress;
import io.quotaflow.process.ProcessCommandLine;
import io.quotaflow.process.KafkaRefusal;
import io.quotaflow.process.ProcessException;
import io.quotaflow.process.ProcessLifecycle;
import io.quotaflow.process.QuotaflowVersion;
import io.quotaflow.process.UsageException;
import io.quotaflow.process.Warnings;
import io.quotaflow.process.ops.Health;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import io.quotaflow.streams.api.AdvertisedHost;
import io.quotaflow.streams.api.LiveStateApi;
import io.quotaflow.streams.topology.BoundedRocksDbConfig;
import io.quotaflow.streams.topology.StreamsConfigFactory;
import io.quotaflow.streams.topology.StreamsRunner;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The decision app against a cluster, until Ctrl-C or SIGTERM: {@code quotaflow streams} and
 * {@link StreamsMain} run this same command.
 */
@Command(name = "streams", mixinStandardHelpOptions = true, versionProvider = QuotaflowVersion.class,
    description = "Run the Kafka Streams decision app: samples, specs and configs in; CPU and freeze decisions and pool state out.")
public final class StreamsCommand implements Callable<Integer> {

  static final int DEFAULT_HTTP_PORT = 9401;
  static final String DEFAULT_HTTP_HOST = "0.0.0.0";

  @Mixin
  ConnectionOptions connection;

  @Option(names = "--application-id", paramLabel = "ID", defaultValue = "${env:QUOTAFLOW_APPLICATION_ID:-quotaflow-streams}",
      description = "Kafka Streams application id: consumer group and prefix of internal topics (env QUOTAFLOW_APPLICATION_ID;"
          + " default ${DEFAULT-VALUE}).")
  String applicationId;

  @Option(names = "--state-dir", paramLabel = "DIR", defaultValue = "${env:QUOTAFLOW_STATE_DIR:-${sys:user.home}/.quotaflow/streams}",
      description = "Local state (RocksDB stores), restored from changelogs when lost (env QUOTAFLOW_STATE_DIR;"
          + " default ${DEFAULT-VALUE}).")
  Path stateDir;

  @Option(names = "--standby-replicas", paramLabel = "N", defaultValue = "${env:QUOTAFLOW_STANDBY_REPLICAS:-0}",
      description = "Warm copies of each task's state on other instances, for fast failover (env QUOTAFLOW_STANDBY_REPLICAS;"
          + " default ${DEFAULT-VALUE}; 1 in production).")
  int standbyReplicas;

  @Option(names = "--threads", paramLabel = "N", defaultValue = "${env:QUOTAFLOW_STREAM_THREADS:-1}",
      description = "Stream threads (env QUOTAFLOW_STREAM_THREADS; default ${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "--commit-interval", paramLabel = "DURATION", converter = Durations.Converter.class,
      description = "Transaction commit interval, e.g. 100ms: decisions become visible to enforcers at each commit"
          + " (env QUOTAFLOW_COMMIT_INTERVAL, QUOTAFLOW_COMMIT_INTERVAL_MS in milliseconds deprecated; default "
          + StreamsConfigFactory.DEFAULT_COMMIT_INTERVAL_MS + "ms).")
  Duration commitInterval;

  @Option(names = "--commit-interval-ms", paramLabel = "MS", hidden = true,
      description = "Deprecated: --commit-interval in milliseconds.")
  Long commitIntervalMs;

  @Option(names = "--rocksdb-total-bytes", paramLabel = "BYTES", defaultValue = "${env:QUOTAFLOW_ROCKSDB_TOTAL_BYTES:-67108864}",
      description = "Off-heap budget shared by every state store: RocksDB's block cache, with the memtables charged to it, each store's up to 1/64 of it (env QUOTAFLOW_ROCKSDB_TOTAL_BYTES; default ${DEFAULT-VALUE}).")
  long rocksdbTotalBytes;

  @Option(names = "--replication-factor", paramLabel = "N", defaultValue = "${env:QUOTAFLOW_REPLICATION_FACTOR}",
      description = "Replication factor of topics it creates (env QUOTAFLOW_REPLICATION_FACTOR; default: the broker's"
          + " default.replication.factor).")
  Short replicationFactor;

  @Option(names = "--http-port", paramLabel = "PORT",
      description = "/metrics, /health and live-state port (env QUOTAFLOW_STREAMS_HTTP_PORT, QUOTAFLOW_HTTP_PORT deprecated;"
          + " default " + DEFAULT_HTTP_PORT + "; 0: any free port).")
  Integer httpPort;

  @Option(names = "--http-host", paramLabel = "HOST",
      description = "/metrics, /health and live-state address (env QUOTAFLOW_STREAMS_HTTP_HOST, QUOTAFLOW_HTTP_HOST deprecated;"
          + " default " + DEFAULT_HTTP_HOST + ").")
  String httpHost;

  @Option(names = "--streams-config", paramLabel = "KEY=VALUE",
      description = "A Kafka Streams setting, repeatable (e.g. statestore.cache.max.bytes=134217728); wins over the app's"
          + " defaults. The keys the app sets for correctness or that have a flag are refused: see docs/operations.md.")
  Map<String, String> streamsConfig = new LinkedHashMap<>();

  @Option(names = "--advertised-host", paramLabel = "HOST", defaultValue = "${env:QUOTAFLOW_ADVERTISED_HOST}",
      description = "Host other instances reach this one's HTTP port at, to forward live-state requests (application.server; "
          + "env QUOTAFLOW_ADVERTISED_HOST; default: --http-host, or this machine's host name when that is a wildcard).")
  String advertisedHost;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  Environment environment = Environment.system();

  /** A Ctrl-C waits this long for the last commit before the JVM exits regardless. */
  private final ProcessLifecycle lifecycle = new ProcessLifecycle("streams", Duration.ofSeconds(60));

  @Override
  public Integer call() throws InterruptedException {
    Warnings warnings = Warnings.of(spec);
    Map<String, Object> streams = streamsSettings(warnings);
    OpsAddress address = opsAddress(warnings);
    SchemaRegistryClient registry = connection.registryClient();
    StreamsRunner.Settings settings = new StreamsRunner.Settings(connection.clientProperties(), streams,
        connection.topicSettings(), Optional.ofNullable(replicationFactor));
    PrometheusMeterRegistry meters = OpsServer.newRegistry("streams");
    PrintWriter out = spec.commandLine().getOut();
    // Registered before anything starts, so a Ctrl-C during start-up also waits for the clean stop.
    try (ProcessLifecycle.Running running = lifecycle.begin()) {
      // The HTTP server starts first: its port goes into application.server, which Kafka Streams reads at start.
      AtomicReference<StreamsRunner> started = new AtomicReference<>();
      OpsServer ops;
      try {
        ops = OpsServer.start(address.host(), address.port(), meters, () -> {
          StreamsRunner current = started.get();
          return current == null ? new Health(true, false, -1, "STARTING") : current.health();
        });
      } catch (java.io.UncheckedIOException e) {
        throw new ProcessException(e.getMessage(), e);
      }
      try (ops) {
        // Served at once: a key asked for while the app starts is 503 (retry), not 404.
        LiveStateApi live = LiveStateApi.serveOn(ops);
        String applicationServer = AdvertisedHost.resolve(advertisedHost, address.host()) + ":" + ops.port();
        streams.put(StreamsConfig.APPLICATION_SERVER_CONFIG, applicationServer);
        StreamsRunner runner;
        try {
          runner = StreamsRunner.start(settings, registry, meters);
        } catch (IllegalStateException | KafkaException e) {
          throw new ProcessException("cannot start: " + KafkaRefusal.message(e, connection.clientProperties()), e);
        }
        started.set(runner);
        live.attach(runner);
        try (runner) {
          out.printf("quotaflow streams: application %s on %s, registry %s; /metrics, /health and live state "
              + "(/pools, /nodes/{node}, /tasks/{node}/{task}) on port %d, advertised as %s%n",
              applicationId, connection.bootstrap(), connection.registryUrl(), ops.port(), applicationServer);
          out.flush();
          // Ctrl-C asks this thread to stop; the hook holds the JVM until the last commit is done.
          while (!lifecycle.awaitStopRequest(Duration.ofSeconds(1))) {
            Optional<Throwable> refused = runner.refusal();
            if (refused.isPresent()) {
              throw new ProcessException("stopped: " + KafkaRefusal.message(refused.get(), connection.clientProperties()),
                  refused.get());
            }
          }
          out.println("quotaflow streams: stopping after the current commit...");
          out.flush();
        }
      }
      out.println("quotaflow streams: stopped.");
      out.flush();
    }
    return ProcessCommandLine.OK;
  }

  /**
   * The Kafka Streams settings of the flags and {@code --streams-config}, which win over the
   * factory's defaults ({@code StreamsConfigFactory}).
   *
   * @throws UsageException for a {@code --streams-config} key the app owns
   */
  Map<String, Object> streamsSettings(Warnings warnings) {
    try {
      StreamsConfigFactory.requireOperatorSettable(streamsConfig.keySet());
    } catch (IllegalArgumentException e) {
      throw new UsageException("--streams-config " + e.getMessage(), e);
    }
    Map<String, Object> streams = new HashMap<>(streamsConfig);
    streams.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    streams.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    streams.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, standbyReplicas);
    streams.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, threads);
    streams.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, commitInterval(warnings).toMillis());
    streams.put(BoundedRocksDbConfig.TOTAL_BYTES_CONFIG, rocksdbTotalBytes);
    if (replicationFactor != null) {
      streams.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) replicationFactor);
    }
    return streams;
  }

  private Duration commitInterval(Warnings warnings) {
    if (commitInterval != null) {
      return commitInterval;
    }
    if (commitIntervalMs != null) {
      warnings.deprecatedFlag("--commit-interval-ms", "--commit-interval " + Durations.format(Duration.ofMillis(commitIntervalMs)));
      return Duration.ofMillis(commitIntervalMs);
    }
    Optional<String> env = environment.get("QUOTAFLOW_COMMIT_INTERVAL");
    if (env.isPresent()) {
      return Environment.duration("QUOTAFLOW_COMMIT_INTERVAL", env.get());
    }
    Optional<String> oldEnv = environment.get("QUOTAFLOW_COMMIT_INTERVAL_MS");
    if (oldEnv.isPresent()) {
      warnings.warn("QUOTAFLOW_COMMIT_INTERVAL_MS is deprecated; use QUOTAFLOW_COMMIT_INTERVAL=" + oldEnv.get() + "ms");
      return Duration.ofMillis(Environment.integer("QUOTAFLOW_COMMIT_INTERVAL_MS", oldEnv.get()));
    }
    return Duration.ofMillis(StreamsConfigFactory.DEFAULT_COMMIT_INTERVAL_MS);
  }

  OpsAddress opsAddress(Warnings warnings) {
    return OpsAddress.resolve("streams", httpHost, httpPort, new OpsAddress(DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT),
        environment, warnings, "QUOTAFLOW_HTTP_");
  }

  /** Asks a running command to stop, as Ctrl-C does. */
  public void requestStop() {
    lifecycle.requestStop();
  }
}
