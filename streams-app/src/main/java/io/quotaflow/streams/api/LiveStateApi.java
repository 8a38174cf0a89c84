package io.quotaflow.streams.api;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.streams.topology.StreamsRunner;
import java.io.IOException;
import java.util.List;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live-state endpoints on the streams app's ops server (DESIGN "Live state"): {@code GET /pools},
 * {@code /pools/{pool}}, {@code /nodes/{node}}, {@code /tasks/{node}/{task}}. Each request is answered
 * from the stores of the instance that owns its key — this one, or the owner it is forwarded to.
 */
public final class LiveStateApi implements HttpHandler {

  private static final Logger LOG = LoggerFactory.getLogger(LiveStateApi.class);
  private static final List<String> CONTEXTS = List.of("/pools", "/nodes", "/tasks");

  /** What a request needs once Kafka Streams runs; null until {@link #attach}: requests are 503 meanwhile. */
  private volatile Serving serving;

  private record Serving(String self, HostInfo selfHost, Owners owners, LiveReads reads, Forwarder forwarder) {}

  private LiveStateApi() {}

  /**
   * Serves the endpoints on {@code ops} from now on, answering 503 until {@link #attach}: the server
   * starts before Kafka Streams (whose {@code application.server} names its port), and a key asked
   * for meanwhile is not missing, only not readable yet.
   */
  public static LiveStateApi serveOn(OpsServer ops) {
    LiveStateApi api = new LiveStateApi();
    CONTEXTS.forEach(context -> ops.addPage(context, api));
    return api;
  }

  /** {@link #serveOn} and {@link #attach} at once, for an app already started. */
  public static LiveStateApi serve(OpsServer ops, StreamsRunner runner) {
    LiveStateApi api = serveOn(ops);
    api.attach(runner);
    return api;
  }

  /**
   * Answers from {@code runner}'s stores from now on. Its {@code application.server} must name the
   * ops server this API is served on: the other instances forward there.
   */
  public void attach(StreamsRunner runner) {
    HostInfo self = runner.applicationServer().orElseThrow(() -> new IllegalStateException(
        "live state needs application.server (host:port of this ops server) so other instances can forward to it"));
    attach(runner.kafkaStreams(), self);
  }

  void attach(KafkaStreams streams, HostInfo self) {
    String address = self.host() + ":" + self.port();
    serving = new Serving(address, self, new Owners(streams), new LiveReads(streams), new Forwarder(address));
  }

  @Override
  public void handle(HttpExchange exchange) {
    Serving now = serving;
    String self = now == null ? null : now.self();
    try {
      if (!"GET".equals(exchange.getRequestMethod())) {
        exchange.getResponseHeaders().add("Allow", "GET");
        send(exchange, Answer.error(405, "live state is read-only: GET only", self));
        return;
      }
      String rawPath = exchange.getRequestURI().getRawPath();
      Route route = Route.parse(rawPath);
      if (now == null) {
        throw ApiException.unavailable("the streams app is starting: Kafka Streams is not running yet");
      }
      Owner owner = now.owners().locate(route);
      if (owner.host().equals(now.selfHost())) {
        send(exchange, new Answer(200, now.reads().read(route, owner.partition()), self));
      } else if (exchange.getRequestHeaders().containsKey(Forwarder.FORWARDED_BY)) {
        // Metadata of the two instances disagree while a partition moves: refusing, not forwarding back, ends the loop.
        throw ApiException.unavailable("forwarded here by " + exchange.getRequestHeaders().getFirst(Forwarder.FORWARDED_BY)
            + ", but partition " + owner.partition() + " is owned by " + owner.address() + " now: ownership is moving, retry");
      } else {
        String query = exchange.getRequestURI().getRawQuery();
        now.forwarder().forward(owner, query == null ? rawPath : rawPath + "?" + query).thenAccept(answer -> send(exchange, answer));
      }
    } catch (ApiException e) {
      send(exchange, Answer.error(e.status(), e.getMessage(), self));
    } catch (RuntimeException e) {
      LOG.warn("live state request {} failed", exchange.getRequestURI(), e);
      send(exchange, Answer.error(500, "internal error: " + e, self));
    }
  }

  private static void send(HttpExchange exchange, Answer answer) {
    try {
      if (answer.servedBy() != null) {
        exchange.getResponseHeaders().set(Forwarder.SERVED_BY, answer.servedBy());
      }
      if (answer.status() == 503) {
        exchange.getResponseHeaders().set("Retry-After", "1");
      }
      OpsServer.respond(exchange, answer.status(), "application/json", answer.json());
    } catch (IOException e) {
      LOG.debug("live state client went away: {}", e.toString());
    } finally {
      exchange.close();
    }
  }
}
