package io.quotaflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.schemas.json.JsonRecords;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/** What the operator tools read from a streams app's live state (docs/operations.md, "Live state"); any instance answers. */
final class LiveStateClient {

  private final String baseUrl;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  LiveStateClient(String baseUrl) {
    this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
  }

  /** Every pool's newest {@code PoolState} as JSON, by pool. */
  Map<String, JsonNode> pools() {
    Map<String, JsonNode> byPool = new TreeMap<>();
    for (JsonNode state : get("/pools").path("pools")) {
      byPool.put(state.path("pool").asText(), state);
    }
    return byPool;
  }

  private JsonNode get(String path) {
    HttpResponse<String> response;
    try {
      URI uri = URI.create(baseUrl + path);
      response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IllegalArgumentException e) {
      throw new CliException("bad --streams-url '" + baseUrl + "': " + e.getMessage());
    } catch (IOException e) {
      throw new CliException("cannot reach the streams app at " + baseUrl + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException("interrupted while asking the streams app at " + baseUrl);
    }
    JsonNode body;
    try {
      body = JsonRecords.MAPPER.readTree(response.body());
    } catch (IOException e) {
      throw new CliException("the streams app at " + baseUrl + " answered " + path + " with something that is not JSON (status "
          + response.statusCode() + ")");
    }
    if (response.statusCode() != 200) {
      throw new CliException("the streams app at " + baseUrl + " answered " + path + " with " + response.statusCode() + ": "
          + body.path("reason").asText(response.body()));
    }
    return body;
  }
}
