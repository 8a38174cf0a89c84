package io.quotaflow.embedded;

import java.util.List;
import java.util.Map;

/**
 * One registry API call after routing.
 *
 * @param params the path segments the route's {@code {}} placeholders matched, decoded, in order
 * @param query decoded query parameters (the last value of a repeated one)
 */
record ApiRequest(List<String> params, Map<String, String> query, byte[] body) {

  String param(int index) {
    return params.get(index);
  }

  boolean flag(String name) {
    return Boolean.parseBoolean(query.getOrDefault(name, "false"));
  }
}
