package io.quotaflow.embedded;

import java.net.BindException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Apache Kafka broker in KRaft mode, running inside this JVM: one combined broker and
 * controller node built from Kafka's production classes ({@link KafkaRaftServer}, {@link KafkaConfig}
 * and the storage {@code Formatter}), as {@code kafka-storage.sh format} and
 * {@code kafka-server-start.sh} would run it. The data directory is formatted only when it is not
 * yet, so a restart on the same directory keeps topics and committed offsets.
 *
 * <pre>{@code
 * try (EmbeddedKafka kafka = EmbeddedKafka.start(BrokerSettings.defaults())) {
 *   String bootstrap = kafka.bootstrapServers();
 * }
 * }</pre>
 */
public final class EmbeddedKafka implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);
  /** Free ports are probed before the broker binds them; another process may win that race. */
  private static final int BIND_ATTEMPTS = 3;
  /** Generous: readiness normally takes a second or two, but a loaded CI machine can be slow. */
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

  private final KafkaRaftServer server;
  private final Path dataDir;
  private final boolean temporary;
  private final String host;
  private final int port;
  private final String clusterId;
  private final boolean formatted;
  private final Duration startupTime;
  private final BrokerSecurity security;
  private final AtomicBoolean closed = new AtomicBoolean();

  private EmbeddedKafka(KafkaRaftServer server, Path dataDir, boolean temporary, String host, int port,
      String clusterId, boolean formatted, Duration startupTime, BrokerSecurity security) {
    this.server = server;
    this.dataDir = dataDir;
    this.temporary = temporary;
    this.host = host;
    this.port = port;
    this.clusterId = clusterId;
    this.formatted = formatted;
    this.startupTime = startupTime;
    this.security = security;
  }

  /** A broker on a temporary data directory and free ports. */
  public static EmbeddedKafka start() {
    return start(BrokerSettings.defaults());
  }

  /** Formats the data directory if needed, starts the broker and returns once a client round trip succeeded. */
  public static EmbeddedKafka start(BrokerSettings settings) {
    QuietLogging.apply();
    boolean temporary = settings.dataDir() == null;
    Path dir = temporary ? Directories.temporary("quotaflow-kafka-") : settings.dataDir().toAbsolutePath();
    long started = System.nanoTime();
    try {
      for (int attempt = 1; ; attempt++) {
        int port = settings.port() != 0 ? settings.port() : Ports.free(settings.host());
        int controllerPort = settings.controllerPort() != 0 ? settings.controllerPort() : freeOtherThan(settings.host(), port);
        try {
          return startOn(settings, dir, temporary, port, controllerPort, started);
        } catch (RuntimeException e) {
          boolean portsWerePicked = settings.port() == 0 || settings.controllerPort() == 0;
          if (attempt < BIND_ATTEMPTS && portsWerePicked && isBindFailure(e)) {
            LOG.warn("Port {} or {} was taken before the broker bound it; retrying on other ports", port, controllerPort);
            continue;
          }
          throw e;
        }
      }
    } catch (RuntimeException | Error e) {
      if (temporary) {
        Directories.deleteRecursively(dir);
      }
      throw e;
    }
  }

  private static EmbeddedKafka startOn(BrokerSettings settings, Path dir, boolean temporary, int port, int controllerPort,
      long startedNanos) {
    Properties props = BrokerProperties.singleNode(dir, settings.host(), settings.clientHost(), port, controllerPort,
        settings.overrides(), settings.security());
    KafkaConfig config = KafkaConfig.fromProps(props, false);
    boolean formatNow = !KraftStorage.isFormatted(dir);
    String clusterId;
    try {
      clusterId = KraftStorage.ensureFormatted(config, dir,
          settings.security() == null ? List.of() : settings.security().scramArguments());
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("cannot prepare Kafka data directory " + dir + ": " + e.getMessage(), e);
    }
    KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
    try {
      server.startup();
      BrokerReadiness.await(clientConfig(settings.clientHost() + ":" + port, settings.security()), READY_TIMEOUT);
    } catch (RuntimeException e) {
      stop(server);
      throw new IllegalStateException("embedded Kafka broker on " + settings.host() + ":" + port + " (data " + dir
          + ") failed to start: " + e.getMessage(), e);
    }
    Duration took = Duration.ofNanos(System.nanoTime() - startedNanos);
    LOG.info("Kafka broker ready on {}:{} in {} ms (cluster {}, data {}{})", settings.host(), port, took.toMillis(),
        clusterId, dir, formatNow ? ", formatted now" : "");
    return new EmbeddedKafka(server, dir, temporary, settings.clientHost(), port, clusterId, formatNow, took,
        settings.security());
  }

  /** {@code host:port} of the client listener, for {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return host + ":" + port;
  }

  /**
   * The client configuration every Kafka client of this broker needs: the bootstrap servers, and on
   * a secured broker SASL_SSL as its super user.
   */
  public Map<String, Object> clientConfig() {
    return clientConfig(bootstrapServers(), security);
  }

  /** On a secured broker: the client configuration of one of its SCRAM users. */
  public Map<String, Object> clientConfig(String user) {
    if (security == null) {
      throw new IllegalStateException("the broker on " + bootstrapServers() + " has no users: it was started without security");
    }
    Map<String, Object> config = new HashMap<>(security.clientConfig(user));
    config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    return Map.copyOf(config);
  }

  private static Map<String, Object> clientConfig(String bootstrapServers, BrokerSecurity security) {
    Map<String, Object> config = new HashMap<>(security == null ? Map.of() : security.clientConfig(security.superUser()));
    config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    return Map.copyOf(config);
  }

  public int port() {
    return port;
  }

  public Path dataDir() {
    return dataDir;
  }

  /** Whether the data directory is deleted on {@link #close()} (it was made for this broker). */
  public boolean isTemporary() {
    return temporary;
  }

  public String clusterId() {
    return clusterId;
  }

  /** Whether this start formatted the data directory (false: it reused one formatted before). */
  public boolean formattedDataDir() {
    return formatted;
  }

  /** From {@link #start} being called to the readiness round trip succeeding. */
  public Duration startupTime() {
    return startupTime;
  }

  /** Stops the broker (controlled shutdown, logs flushed) and deletes a temporary data directory. Idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    stop(server);
    if (temporary) {
      Directories.deleteRecursively(dataDir);
    }
    LOG.info("Kafka broker on {} stopped", bootstrapServers());
  }

  private static void stop(KafkaRaftServer server) {
    server.shutdown();
    server.awaitShutdown();
  }

  private static int freeOtherThan(String host, int taken) {
    int port;
    do {
      port = Ports.free(host);
    } while (port == taken);
    return port;
  }

  private static boolean isBindFailure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BindException || t.getMessage() != null && t.getMessage().contains("Address already in use")) {
        return true;
      }
    }
    return false;
  }
}
