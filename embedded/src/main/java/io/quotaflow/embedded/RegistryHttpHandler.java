package io.quotaflow.embedded;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.quotaflow.schemas.registry.SchemaRegistryException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of the registry: authentication, decoding of the path and query, Confluent's
 * content type, and every failure turned into Confluent's error body
 * {@code {"error_code": N, "message": "..."}} with the matching HTTP status.
 */
final class RegistryHttpHandler implements HttpHandler {
  private static final Logger LOG = LoggerFactory.getLogger(RegistryHttpHandler.class);
  static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
  /** Confluent's code for an internal error. */
  private static final int INTERNAL_ERROR_CODE = 50001;

  private final RegistryRoutes routes;
  private final BasicAuth auth;
  private final InFlightRequests inFlight;

  RegistryHttpHandler(RegistryRoutes routes, BasicAuth auth, InFlightRequests inFlight) {
    this.routes = routes;
    this.auth = auth;
    this.inFlight = inFlight;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try {
      if (!inFlight.enter()) {
        send(exchange, new ApiReply(503, RegistryJson.error(50003, "The schema registry is shutting down")));
        return;
      }
      try {
        send(exchange, answer(exchange));
      } finally {
        inFlight.exit();
      }
    } finally {
      exchange.close();
    }
  }

  private ApiReply answer(HttpExchange exchange) {
    try {
      if (auth != null && !auth.accepts(exchange.getRequestHeaders().getFirst("Authorization"))) {
        exchange.getResponseHeaders().set("WWW-Authenticate", BasicAuth.CHALLENGE);
        return new ApiReply(401, RegistryJson.error(401, "Unauthorized"));
      }
      List<String> path;
      Map<String, String> query;
      try {
        path = decodedSegments(exchange.getRequestURI().getRawPath());
        query = query(exchange.getRequestURI().getRawQuery());
      } catch (IllegalArgumentException e) {
        return new ApiReply(400, RegistryJson.error(400, "Malformed URL: " + e.getMessage()));
      }
      return routes.dispatch(exchange.getRequestMethod(), path, query, body(exchange));
    } catch (SchemaRegistryException e) {
      return new ApiReply(e.httpStatus(), RegistryJson.error(e.errorCode(), detail(e)));
    } catch (RuntimeException | IOException e) {
      LOG.error("Schema registry failed to answer {} {}", exchange.getRequestMethod(), exchange.getRequestURI(), e);
      return new ApiReply(500, RegistryJson.error(INTERNAL_ERROR_CODE, "Internal error: " + e));
    }
  }

  private static void send(HttpExchange exchange, ApiReply reply) throws IOException {
    byte[] bytes = reply.json().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
    exchange.sendResponseHeaders(reply.status(), bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static byte[] body(HttpExchange exchange) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      return in.readAllBytes();
    }
  }

  /** Path segments with percent-escapes decoded; '+' is a literal plus in a path, not a space. */
  static List<String> decodedSegments(String rawPath) {
    return RegistryRoutes.segments(rawPath).stream()
        .map(segment -> URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8))
        .toList();
  }

  static Map<String, String> query(String rawQuery) {
    Map<String, String> query = new HashMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return query;
    }
    for (String pair : rawQuery.split("&")) {
      int eq = pair.indexOf('=');
      String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      query.put(name, value);
    }
    return query;
  }

  /**
   * The message without the " (HTTP s, error_code c)" suffix {@link SchemaRegistryException} adds
   * for logs: the status and code travel in the answer itself.
   */
  static String detail(SchemaRegistryException e) {
    String message = e.getMessage();
    String suffix = " (HTTP " + e.httpStatus() + ", error_code " + e.errorCode() + ")";
    return message.endsWith(suffix) ? message.substring(0, message.length() - suffix.length()) : message;
  }
}
