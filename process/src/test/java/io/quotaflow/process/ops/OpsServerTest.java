package io.quotaflow.process.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class OpsServerTest {

  private static HttpResponse<String> get(OpsServer server, String path) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void servesPrometheusMetricsAndHealthThatFollowsReadiness() throws Exception {
    PrometheusMeterRegistry registry = OpsServer.newRegistry("collector");
    registry.counter("quotaflow_samples_published").increment(3);
    AtomicBoolean ready = new AtomicBoolean(false);
    try (OpsServer server = OpsServer.start("127.0.0.1", 0, registry, () -> new Health(true, ready.get(), 1500, "STARTING \"x\""))) {
      HttpResponse<String> metrics = get(server, "/metrics");
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body()).contains("quotaflow_samples_published_total{component=\"collector\"} 3.0");

      HttpResponse<String> notReady = get(server, "/health");
      assertThat(notReady.statusCode()).isEqualTo(503);
      assertThat(notReady.body()).isEqualTo("{\"live\":true,\"ready\":false,\"staleness_ms\":1500,\"detail\":\"STARTING \\\"x\\\"\"}");
      ready.set(true);
      assertThat(get(server, "/health").statusCode()).isEqualTo(200);
    }
  }

  /** Found by the streams app's OpsHttpFuzzTest: any method, and any path the context prefixes, was answered 200. */
  @Test
  void onlyAGetOfExactlyMetricsOrHealthIsAnswered() throws Exception {
    try (OpsServer server = OpsServer.start("127.0.0.1", 0, OpsServer.newRegistry("streams"), () -> new Health(true, true, -1, "RUNNING"))) {
      for (String path : new String[] {"/metrics/../health", "/metricsX", "/healthz", "/health/", "/metrics/x"}) {
        assertThat(get(server, path).statusCode()).as(path).isEqualTo(404);
      }
      HttpResponse<String> post = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
          + server.port() + "/metrics")).POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(post.statusCode()).isEqualTo(405);
      assertThat(post.headers().firstValue("Allow")).contains("GET");
      assertThat(get(server, "/metrics?name=x").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aPageAddedAfterStartIsServed() throws Exception {
    try (OpsServer server = OpsServer.start("127.0.0.1", 0, OpsServer.newRegistry("streams"), () -> new Health(true, true, -1, "RUNNING"))) {
      assertThat(get(server, "/late").statusCode()).isEqualTo(404);
      server.addPage("/late", exchange -> OpsServer.respond(exchange, 200, "application/json", "{\"port\":" + server.port() + "}"));
      HttpResponse<String> late = get(server, "/late");
      assertThat(late.statusCode()).isEqualTo(200);
      assertThat(late.body()).isEqualTo("{\"port\":" + server.port() + "}");
    }
  }

  @Test
  void servesTheJvmAndProcessMetricsUnderTheirStandardNames() throws Exception {
    try (OpsServer server = OpsServer.start("127.0.0.1", 0, OpsServer.newRegistry("enforcer"), () -> new Health(true, true, -1, "RUNNING"))) {
      assertThat(get(server, "/metrics").body()).contains(
          "jvm_memory_used_bytes{area=\"heap\",component=\"enforcer\",",
          "jvm_gc_memory_allocated_bytes_total{",
          "jvm_threads_live_threads{",
          "jvm_classes_loaded_classes{",
          "process_cpu_usage{",
          "process_uptime_seconds{",
          "process_start_time_seconds{",
          "process_files_open_files{");
    }
  }
}
