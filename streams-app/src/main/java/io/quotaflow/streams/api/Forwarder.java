package io.quotaflow.streams.api;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Passes a request on to the instance that owns its key and relays the answer as it is. Asynchronous,
 * so a slow or dead peer never holds the ops server's thread (and {@code /health} with it).
 */
final class Forwarder {

  /** Set on a forwarded request: its receiver answers from its own stores or refuses, never forwards again. */
  static final String FORWARDED_BY = "X-Quotaflow-Forwarded-By";
  /** On every answer: the instance that read the store (or refused). */
  static final String SERVED_BY = "X-Quotaflow-Served-By";
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
  private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(5);

  private final HttpClient client = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
  private final String self;

  Forwarder(String self) {
    this.self = self;
  }

  /** The owner's answer, or a 503 saying it did not give one. */
  CompletableFuture<Answer> forward(Owner owner, String rawPathAndQuery) {
    String host = owner.host().host().contains(":") ? "[" + owner.host().host() + "]" : owner.host().host();
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + host + ":" + owner.host().port() + rawPathAndQuery))
        .timeout(ANSWER_TIMEOUT).header(FORWARDED_BY, self).GET().build();
    return client.sendAsync(request, HttpResponse.BodyHandlers.ofString()).handle((response, error) -> {
      if (error != null) {
        Throwable cause = error.getCause() != null ? error.getCause() : error;
        return Answer.error(503, "the owner of this key, " + owner.address() + ", did not answer: " + cause, self);
      }
      return new Answer(response.statusCode(), response.body(), response.headers().firstValue(SERVED_BY).orElse(owner.address()));
    });
  }
}
