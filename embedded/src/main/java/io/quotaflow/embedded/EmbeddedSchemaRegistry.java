package io.quotaflow.embedded;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A schema registry speaking Confluent's REST API (Avro only), on the JDK's HTTP server, keeping
 * its schemas and compatibility levels in a compacted Kafka topic ({@code _schemas} by default).
 * Ids are global and stable: every change is stored before it is answered, and a restarted
 * registry replays the topic, so it serves the same ids. Registration and compatibility checks are
 * those of {@link io.quotaflow.schemas.registry.InMemorySchemaRegistryClient}, honouring the global
 * and per-subject compatibility levels. One registry per store topic: there is no leader election.
 *
 * <pre>{@code
 * try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.start(RegistrySettings.forBroker(bootstrap))) {
 *   String url = registry.url();
 * }
 * }</pre>
 */
public final class EmbeddedSchemaRegistry implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedSchemaRegistry.class);
  /** Enough to serve serializers of several clients at once; registration itself is serialized. */
  private static final int HTTP_THREADS = 8;
  private static final Duration STOP_GRACE = Duration.ofSeconds(10);

  private final HttpServer server;
  private final ExecutorService executor;
  private final DurableRegistry registry;
  private final InFlightRequests inFlight;
  private final String url;
  private final AtomicBoolean closed = new AtomicBoolean();

  private EmbeddedSchemaRegistry(HttpServer server, ExecutorService executor, DurableRegistry registry,
      InFlightRequests inFlight, String url) {
    this.server = server;
    this.executor = executor;
    this.registry = registry;
    this.inFlight = inFlight;
    this.url = url;
  }

  /** Reads the store topic to its end (creating it when missing), then starts answering. */
  public static EmbeddedSchemaRegistry start(RegistrySettings settings) {
    DurableRegistry registry = DurableRegistry.open(settings);
    ExecutorService executor = Executors.newFixedThreadPool(HTTP_THREADS, daemonThreads());
    try {
      InetSocketAddress address = new InetSocketAddress(settings.host(), settings.port());
      HttpServer server;
      if (settings.tls() != null) {
        HttpsServer https = HttpsServer.create(address, 0);
        https.setHttpsConfigurator(new HttpsConfigurator(settings.tls()));
        server = https;
      } else {
        server = HttpServer.create(address, 0);
      }
      InFlightRequests inFlight = new InFlightRequests();
      server.createContext("/", new RegistryHttpHandler(new RegistryEndpoints(registry).routes(),
          BasicAuth.of(settings.basicAuthUserInfo()), inFlight));
      server.setExecutor(executor);
      server.start();
      String url = (settings.tls() != null ? "https://" : "http://") + settings.host() + ":" + server.getAddress().getPort();
      LOG.info("Schema registry ready at {} (store topic {} on {})", url, settings.topic(), settings.bootstrapServers());
      return new EmbeddedSchemaRegistry(server, executor, registry, inFlight, url);
    } catch (IOException e) {
      executor.shutdownNow();
      registry.close();
      throw new UncheckedIOException("cannot start the schema registry on " + settings.host() + ":" + settings.port()
          + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      executor.shutdownNow();
      registry.close();
      throw e;
    }
  }

  /** The base URL, e.g. {@code http://localhost:8081} ({@code https} with TLS), for {@code schema.registry.url}. */
  public String url() {
    return url;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** Lets running requests finish (up to 10 s), stops the HTTP server and closes the store's clients. Idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      if (!inFlight.closeAndAwait(STOP_GRACE)) {
        LOG.warn("Schema registry at {} stopped with requests still running after {}", url, STOP_GRACE);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    server.stop(0);
    executor.shutdown();
    try {
      executor.awaitTermination(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    registry.close();
    LOG.info("Schema registry at {} stopped", url);
  }

  private static ThreadFactory daemonThreads() {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, "quotaflow-schema-registry-http-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
