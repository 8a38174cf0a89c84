package io.quotaflow.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Raw HTTP calls to a registry, for asserting exact statuses, bodies and headers. */
final class RegistryHttp {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  record Answer(int status, String contentType, JsonNode json, String body) {}

  private RegistryHttp() {}

  static Answer get(String url) {
    return call("GET", url, null);
  }

  static Answer call(String method, String url, String body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
        .header("Accept", "application/vnd.schemaregistry.v1+json");
    if (body == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request.header("Content-Type", "application/vnd.schemaregistry.v1+json")
          .method(method, HttpRequest.BodyPublishers.ofString(body));
    }
    try {
      HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
      JsonNode json;
      try {
        json = JSON.readTree(response.body());
      } catch (IOException e) {
        json = null;
      }
      return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""), json, response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** {@code {"schema": "<schema JSON as a string>"}}. */
  static String schemaBody(String schemaJson) {
    return JSON.createObjectNode().put("schema", schemaJson).toString();
  }
}
