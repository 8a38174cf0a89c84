package io.quotaflow.process.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * The operations endpoint every Quotaflow process serves: {@code /metrics} in Prometheus text
 * format and {@code /health} as JSON with liveness, readiness and staleness (status 200 when ready,
 * 503 otherwise, so a load balancer or Kubernetes probe can use it as it is). Its {@code /metrics}
 * carries the standard JVM and process meters besides the component's own (docs/operations.md "Metrics").
 */
public final class OpsServer implements AutoCloseable {

  /**
   * Threads answering requests. The JDK server reads each request on one of them, with no time
   * limit: with one thread, a single client that sent half a request and waited (a stuck scraper, a
   * slowloris) left /health and /metrics unanswered for as long as it kept the connection open.
   */
  static final int THREADS = 4;

  static {
    // The JDK server's own limit on reading a request, in seconds, off by default: a client that stalls
    // longer is disconnected and its thread freed. Read once, when the first HttpServer of the JVM
    // starts, so it holds where an ops server is the first (the component processes); set it on the
    // command line to choose another, or where another server starts first.
    if (System.getProperty("sun.net.httpserver.maxReqTime") == null) {
      System.setProperty("sun.net.httpserver.maxReqTime", "10");
    }
  }

  private final HttpServer server;
  private final PrometheusMeterRegistry registry;
  private final JvmProcessMeters jvmProcessMeters;

  private OpsServer(HttpServer server, PrometheusMeterRegistry registry, JvmProcessMeters jvmProcessMeters) {
    this.server = server;
    this.registry = registry;
    this.jvmProcessMeters = jvmProcessMeters;
  }

  /** A registry for a component's meters, with the common tag {@code component}. */
  public static PrometheusMeterRegistry newRegistry(String component) {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    registry.config().commonTags("component", component);
    return registry;
  }

  /** Serves on {@code host:port} (port 0: any free port) until closed. */
  public static OpsServer start(String host, int port, PrometheusMeterRegistry registry, HealthCheck health) {
    return start(host, port, registry, health, Map.of());
  }

  /**
   * As {@link #start(String, int, PrometheusMeterRegistry, HealthCheck)}, also serving {@code pages}
   * (path to handler), such as the demo's status page.
   */
  public static OpsServer start(String host, int port, PrometheusMeterRegistry registry, HealthCheck health,
      Map<String, HttpHandler> pages) {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
      server.setExecutor(Executors.newFixedThreadPool(THREADS, r -> {
        Thread t = new Thread(r, "quotaflow-ops-http");
        t.setDaemon(true);
        return t;
      }));
      server.createContext("/metrics", getOnly("/metrics",
          exchange -> respond(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape())));
      server.createContext("/health", getOnly("/health", exchange -> {
        Health h = health.check();
        respond(exchange, h.ready() ? 200 : 503, "application/json", h.toJson());
      }));
      pages.forEach(server::createContext);
      server.start();
      return new OpsServer(server, registry, JvmProcessMeters.bindTo(registry));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serve /metrics and /health on " + host + ":" + port + ": " + e.getMessage(), e);
    }
  }

  /**
   * Serves {@code handler} at {@code path} from now on. For pages that need something started after the
   * server: the streams app's live state must know this server's port before Kafka Streams starts
   * (it is the {@code application.server} other instances forward to).
   */
  public void addPage(String path, HttpHandler handler) {
    server.createContext(path, handler);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /**
   * {@code handler} for GET of exactly {@code path}: a context also matches every path it prefixes
   * ({@code /metrics/../x}, {@code /healthz}), and a probe or scraper that sends anything else is
   * misconfigured, so it is told so (404, 405) rather than answered as if it had asked right.
   */
  private static HttpHandler getOnly(String path, HttpHandler handler) {
    return exchange -> {
      try {
        if (!path.equals(exchange.getRequestURI().getRawPath())) {
          respond(exchange, 404, "text/plain; charset=utf-8", "no such page (this server serves GET /metrics and GET /health)\n");
        } else if (!"GET".equals(exchange.getRequestMethod())) {
          exchange.getResponseHeaders().add("Allow", "GET");
          respond(exchange, 405, "text/plain; charset=utf-8", path + " is read-only: GET only\n");
        } else {
          handler.handle(exchange);
        }
      } finally {
        exchange.close();
      }
    };
  }

  /** Sends {@code body} with {@code status} and closes the exchange. */
  public static void respond(HttpExchange exchange, int status, String contentType, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", contentType);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    jvmProcessMeters.close();
  }
}
