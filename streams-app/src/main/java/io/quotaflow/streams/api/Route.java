package io.quotaflow.streams.api;

import io.quotaflow.schemas.Ids;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One live-state request: which resource and which ids. Ids are checked here against
 * {@link Ids}: a path that can name no store key is answered 404 with the reason, never queried.
 *
 * @param node set for {@link Kind#NODE} and {@link Kind#TASK}
 * @param id the pool for {@link Kind#POOL}, the task for {@link Kind#TASK}
 */
record Route(Kind kind, String node, String id) {

  enum Kind { POOLS, POOL, NODE, TASK }

  /** The paths served, for the HTTP server's contexts and for the reason of a 404. */
  static final List<String> PATHS = List.of("/pools", "/pools/{pool}", "/nodes/{node}", "/tasks/{node}/{task}");

  /**
   * Parses a raw (still percent-encoded) request path; throws a 404 {@link ApiException} naming what
   * is wrong, or a 400 for a path that is not percent-encoded right.
   */
  static Route parse(String rawPath) {
    List<String> parts = new ArrayList<>();
    for (String part : rawPath.split("/", -1)) {
      parts.add(decode(part, rawPath));
    }
    // "/pools/x" splits into ["", "pools", "x"]; one trailing slash is forgiven.
    if (parts.size() > 2 && parts.get(parts.size() - 1).isEmpty()) {
      parts.remove(parts.size() - 1);
    }
    List<String> segments = parts.subList(1, parts.size());
    String resource = segments.isEmpty() ? "" : segments.get(0);
    switch (resource) {
      case "pools":
        if (segments.size() == 1) {
          return new Route(Kind.POOLS, null, null);
        }
        if (segments.size() == 2) {
          return new Route(Kind.POOL, null, id("pool", segments.get(1)));
        }
        break;
      case "nodes":
        if (segments.size() == 2) {
          return new Route(Kind.NODE, id("node", segments.get(1)), null);
        }
        break;
      case "tasks":
        if (segments.size() == 3) {
          return new Route(Kind.TASK, id("node", segments.get(1)), id("task", segments.get(2)));
        }
        break;
      default:
        break;
    }
    throw ApiException.notFound("no such resource '" + rawPath + "' (live state serves " + String.join(", ", PATHS) + ")");
  }

  /** A path segment decoded; '%' not followed by two hex digits was an internal error (500) before it was this 400. */
  private static String decode(String segment, String rawPath) {
    try {
      return URLDecoder.decode(segment, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("path '" + rawPath + "' is not percent-encoded right: " + e.getMessage());
    }
  }

  private static String id(String what, String id) {
    try {
      return Ids.requireValid(what, id);
    } catch (Ids.InvalidIdException e) {
      throw ApiException.notFound(e.getMessage());
    }
  }
}
