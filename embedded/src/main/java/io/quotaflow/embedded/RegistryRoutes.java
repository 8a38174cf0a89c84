package io.quotaflow.embedded;

import io.quotaflow.schemas.registry.SchemaRegistryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Matches a method and path to an endpoint: patterns are literal segments and {@code {}}
 * placeholders (one segment each). A path that matches with another method is a 405, no match a 404,
 * both with Confluent's error body.
 */
final class RegistryRoutes {

  interface Endpoint {
    ApiReply handle(ApiRequest request);
  }

  private record Route(String method, List<String> pattern, Endpoint endpoint) {}

  private final List<Route> routes = new ArrayList<>();

  RegistryRoutes add(String method, String pattern, Endpoint endpoint) {
    routes.add(new Route(method, segments(pattern), endpoint));
    return this;
  }

  ApiReply dispatch(String method, List<String> path, Map<String, String> query, byte[] body) {
    boolean pathKnown = false;
    for (Route route : routes) {
      List<String> params = match(route.pattern(), path);
      if (params == null) {
        continue;
      }
      pathKnown = true;
      if (route.method().equals(method)) {
        return route.endpoint().handle(new ApiRequest(params, query, body));
      }
    }
    if (pathKnown) {
      throw new SchemaRegistryException(405, 405, "HTTP 405 Method Not Allowed");
    }
    throw new SchemaRegistryException(404, 404, "HTTP 404 Not Found");
  }

  private static List<String> match(List<String> pattern, List<String> path) {
    if (pattern.size() != path.size()) {
      return null;
    }
    List<String> params = new ArrayList<>();
    for (int i = 0; i < pattern.size(); i++) {
      if (pattern.get(i).equals("{}")) {
        params.add(path.get(i));
      } else if (!pattern.get(i).equals(path.get(i))) {
        return null;
      }
    }
    return params;
  }

  /** The non-empty segments of a path: {@code /subjects/x/} and {@code /subjects/x} are the same route. */
  static List<String> segments(String path) {
    List<String> segments = new ArrayList<>();
    for (String segment : path.split("/")) {
      if (!segment.isEmpty()) {
        segments.add(segment);
      }
    }
    return segments;
  }
}
