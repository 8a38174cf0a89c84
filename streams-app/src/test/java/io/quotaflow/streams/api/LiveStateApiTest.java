package io.quotaflow.streams.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.process.ops.Health;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.registry.InMemorySchemaRegistryClient;
import io.quotaflow.streams.topology.QuotaflowTopology;
import io.quotaflow.streams.topology.StreamsConfigFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the endpoints answer before there is any state to read: the app still starting, Kafka Streams not started, or stopped. */
class LiveStateApiTest {

  private static HttpResponse<String> send(OpsServer ops, String method, String path) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ops.port() + path))
        .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void withoutRunningStreamsKeysAre503ToRetryWhileBadPathsAndWritesAreRefusedAtOnce(@TempDir Path stateDir) throws Exception {
    Topics topics = Topics.create(Topics.Settings.defaults(), new InMemorySchemaRegistryClient());
    try (OpsServer ops = OpsServer.start("127.0.0.1", 0, OpsServer.newRegistry("streams"), () -> new Health(true, false, -1, "TEST"))) {
      // Never started, so it never connects to this address.
      KafkaStreams streams = new KafkaStreams(QuotaflowTopology.build(topics), StreamsConfigFactory.create("127.0.0.1:1",
          topics.dlq().name(), Map.of(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString(),
              StreamsConfig.APPLICATION_SERVER_CONFIG, "127.0.0.1:" + ops.port())));
      try {
        LiveStateApi api = LiveStateApi.serveOn(ops);
        HttpResponse<String> starting = send(ops, "GET", "/nodes/n1");
        assertThat(starting.statusCode()).as("served before the app is attached: not missing, not readable yet").isEqualTo(503);
        assertThat(starting.body()).contains("starting");
        api.attach(streams, new HostInfo("127.0.0.1", ops.port()));

        HttpResponse<String> notStarted = send(ops, "GET", "/tasks/n1/t1");
        assertThat(notStarted.statusCode()).isEqualTo(503);
        assertThat(notStarted.headers().firstValue("Retry-After")).contains("1");
        assertThat(notStarted.headers().firstValue("X-Quotaflow-Served-By")).contains("127.0.0.1:" + ops.port());
        assertThat(notStarted.body()).contains("\"status\" : 503").contains("CREATED");

        assertThat(send(ops, "GET", "/tasks/n1/.x").statusCode()).isEqualTo(404);
        HttpResponse<String> write = send(ops, "DELETE", "/pools/prod");
        assertThat(write.statusCode()).isEqualTo(405);
        assertThat(write.headers().firstValue("Allow")).contains("GET");
      } finally {
        streams.close();
      }
      HttpResponse<String> stopped = send(ops, "GET", "/pools");
      assertThat(stopped.statusCode()).isEqualTo(503);
      assertThat(stopped.body()).contains("NOT_RUNNING");
    }
  }
}
