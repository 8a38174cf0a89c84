package io.quotaflow.streams.api;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.quotaflow.schemas.ops.OpsServer;
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

  private final String self;
  private final HostInfo selfHost;
  private final Owners owners;
  private final LiveReads reads;
  private final Forwarder forwarder;

  LiveStateApi(KafkaStreams streams, HostInfo self) {
    this.selfHost = self;
    this.self = self.host() + ":" + self.port();
    this.owners = new Owners(streams);
    this.reads = new LiveReads(streams);
    this.forwarder = new Forwarder(this.self);
  }

  /**
   * Serves the endpoints on {@code ops}, which must be the server {@code runner}'s
   * {@code application.server} names: the other instances forward there.
   */
  public static void serve(OpsServer ops, StreamsRunner runner) {
    HostInfo self = runner.applicationServer().orElseThrow(() -> new IllegalStateException(
        "live state needs application.server (host:port of this ops server) so other instances can forward to it"));
    LiveStateApi api = new LiveStateApi(runner.kafkaStreams(), self);
    CONTEXTS.forEach(context -> ops.addPage(context, api));
  }

  @Override
  public void handle(HttpExchange exchange) {
    try {
      if (!"GET".equals(exchange.getRequestMethod())) {
        exchange.getResponseHeaders().add("Allow", "GET");
        send(exchange, Answer.error(405, "live state is read-only: GET only", self));
        return;
      }
      String rawPath = exchange.getRequestURI().getRawPath();
      Route route = Route.parse(rawPath);
      Owner owner = owners.locate(route);
      if (owner.host().equals(selfHost)) {
        send(exchange, new Answer(200, reads.read(route, owner.partition()), self));
      } else if (exchange.getRequestHeaders().containsKey(Forwarder.FORWARDED_BY)) {
        // Metadata of the two instances disagree while a partition moves: refusing, not forwarding back, ends the loop.
        throw ApiException.unavailable("forwarded here by " + exchange.getRequestHeaders().getFirst(Forwarder.FORWARDED_BY)
            + ", but partition " + owner.partition() + " is owned by " + owner.address() + " now: ownership is moving, retry");
      } else {
        String query = exchange.getRequestURI().getRawQuery();
        forwarder.forward(owner, query == null ? rawPath : rawPath + "?" + query).thenAccept(answer -> send(exchange, answer));
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
      exchange.getResponseHeaders().set(Forwarder.SERVED_BY, answer.servedBy());
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
