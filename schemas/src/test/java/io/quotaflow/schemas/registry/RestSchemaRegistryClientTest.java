package io.quotaflow.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.errors.RetriableException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The REST client's protocol behaviour — retries, failover, error mapping, auth, caching — against
 * an HTTP server scripted to answer what a registry answers in those situations (including failing).
 * The client against a real registry is tested with the embedded registry.
 */
class RestSchemaRegistryClientTest {

  record Answer(int status, String body) {}

  record Seen(String method, String path, String authorization, String contentType, String body) {}

  private HttpServer server;
  private final Deque<Answer> script = new ArrayDeque<>();
  private final List<Seen> seen = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      seen.add(new Seen(exchange.getRequestMethod(), exchange.getRequestURI().toString(),
          exchange.getRequestHeaders().getFirst("Authorization"), exchange.getRequestHeaders().getFirst("Content-Type"), body));
      Answer answer;
      synchronized (script) {
        answer = script.isEmpty() ? new Answer(500, "{\"error_code\":50001,\"message\":\"unscripted\"}") : script.poll();
      }
      byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/vnd.schemaregistry.v1+json");
      exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
      exchange.getResponseBody().write(bytes);
      exchange.close();
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private void answer(int status, String body) {
    synchronized (script) {
      script.add(new Answer(status, body));
    }
  }

  private RestSchemaRegistryClient client(String urls, int retries) {
    return new RestSchemaRegistryClient(RegistryClientConfig.of(urls).withRetries(retries, Duration.ofMillis(1), Duration.ofMillis(4)));
  }

  @Test
  void registersWithConfluentsMediaTypeAndCachesTheId() {
    answer(200, "{\"id\":7}");
    RestSchemaRegistryClient client = client(url(), 0);
    assertThat(client.register("quotaflow.samples-value", TestSchemas.base())).isEqualTo(7);
    assertThat(client.register("quotaflow.samples-value", TestSchemas.base())).isEqualTo(7);
    assertThat(client.getSchemaById(7)).isEqualTo(TestSchemas.base());
    assertThat(seen).hasSize(1);
    Seen request = seen.get(0);
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.path()).isEqualTo("/subjects/quotaflow.samples-value/versions");
    assertThat(request.contentType()).isEqualTo("application/vnd.schemaregistry.v1+json");
    assertThat(request.body()).contains("\"schema\"").contains("Reading");
  }

  @Test
  void fetchesASchemaByIdOnceAndKeepsIt() {
    answer(200, "{\"schema\":" + quoted(TestSchemas.base().toString()) + "}");
    RestSchemaRegistryClient client = client(url(), 0);
    assertThat(client.getSchemaById(3)).isEqualTo(TestSchemas.base());
    assertThat(client.getSchemaById(3)).isEqualTo(TestSchemas.base());
    assertThat(seen).extracting(Seen::path).containsExactly("/schemas/ids/3");
  }

  @Test
  void retriesServerErrorsWithBackoffThenSucceeds() {
    answer(503, "{\"error_code\":50003,\"message\":\"forwarding failed\"}");
    answer(500, "not json");
    answer(200, "{\"id\":11}");
    assertThat(client(url(), 3).register("s-value", TestSchemas.base())).isEqualTo(11);
    assertThat(seen).hasSize(3);
  }

  @Test
  void anUnreachableRegistryIsRetriableNotPoison() throws IOException {
    int deadPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      deadPort = socket.getLocalPort();
    }
    RestSchemaRegistryClient client = client("http://127.0.0.1:" + deadPort, 2);
    assertThatThrownBy(() -> client.getSchemaById(1))
        .isInstanceOf(RegistryUnavailableException.class)
        .isInstanceOf(RetriableException.class)
        .hasMessageContaining("after 3 attempts");
  }

  @Test
  void failsOverToTheNextUrl() throws IOException {
    int deadPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      deadPort = socket.getLocalPort();
    }
    answer(200, "{\"id\":5}");
    answer(200, "{\"id\":5,\"subject\":\"s-value\",\"version\":1,\"schema\":" + quoted(TestSchemas.base().toString()) + "}");
    RestSchemaRegistryClient client = client("http://127.0.0.1:" + deadPort + "," + url(), 1);
    assertThat(client.register("s-value", TestSchemas.base())).isEqualTo(5);
    // the working URL is remembered: the next call goes straight to it
    assertThat(client.getLatestSchemaMetadata("s-value").version()).isEqualTo(1);
    assertThat(seen).hasSize(2);
  }

  @Test
  void mapsErrorCodesToSpecificExceptions() {
    RestSchemaRegistryClient client = client(url(), 3);
    answer(404, "{\"error_code\":40401,\"message\":\"Subject 'x' not found.\"}");
    assertThatThrownBy(() -> client.getLatestSchemaMetadata("x")).isInstanceOf(SubjectNotFoundException.class)
        .hasMessageContaining("Subject 'x' not found");
    answer(404, "{\"error_code\":40402,\"message\":\"Version not found.\"}");
    assertThatThrownBy(() -> client.getSchemaMetadata("x", 9)).isInstanceOf(VersionNotFoundException.class);
    answer(404, "{\"error_code\":40403,\"message\":\"Schema not found\"}");
    assertThatThrownBy(() -> client.getSchemaById(42)).isInstanceOf(SchemaNotFoundException.class);
    answer(422, "{\"error_code\":42201,\"message\":\"Invalid schema\"}");
    assertThatThrownBy(() -> client.register("x", TestSchemas.base())).isInstanceOf(InvalidSchemaException.class);
    answer(409, "{\"error_code\":409,\"message\":\"Schema being registered is incompatible\"}");
    assertThatThrownBy(() -> client.register("y", TestSchemas.base())).isInstanceOf(IncompatibleSchemaException.class)
        .extracting("errorCode").isEqualTo(409);
    answer(409, "{\"error_code\":40901,\"message\":\"incompatible\"}");
    assertThatThrownBy(() -> client.register("z", TestSchemas.base())).isInstanceOf(IncompatibleSchemaException.class);
    answer(401, "<html>Unauthorized</html>");
    assertThatThrownBy(() -> client.getAllSubjects()).isExactlyInstanceOf(SchemaRegistryException.class)
        .extracting("errorCode").isEqualTo(50005);
    // 4xx answers are final: none was retried
    assertThat(seen).hasSize(7);
  }

  @Test
  void sendsBasicAuthWhenConfigured() {
    answer(200, "[\"a-value\"]");
    RestSchemaRegistryClient client = new RestSchemaRegistryClient(RegistryClientConfig.fromProperties(java.util.Map.of(
        RegistryClientConfig.URL, url(),
        RegistryClientConfig.BASIC_AUTH_SOURCE, "USER_INFO",
        RegistryClientConfig.BASIC_AUTH_USER_INFO, "svc:s3cret")));
    assertThat(client.getAllSubjects()).containsExactly("a-value");
    assertThat(seen.get(0).authorization()).isEqualTo("Basic c3ZjOnMzY3JldA==");
  }

  @Test
  void readsAndSetsCompatibilityLevels() {
    answer(404, "{\"error_code\":40408,\"message\":\"Subject does not have subject-level compatibility configured\"}");
    answer(200, "{\"compatibilityLevel\":\"BACKWARD\"}");
    answer(200, "{\"compatibility\":\"FULL_TRANSITIVE\"}");
    RestSchemaRegistryClient client = client(url(), 0);
    assertThat(client.getCompatibility("s-value")).isEqualTo(CompatibilityLevel.BACKWARD);
    assertThat(client.updateCompatibility("s-value", CompatibilityLevel.FULL_TRANSITIVE)).isEqualTo(CompatibilityLevel.FULL_TRANSITIVE);
    assertThat(seen).extracting(Seen::method, Seen::path).containsExactly(
        org.assertj.core.groups.Tuple.tuple("GET", "/config/s-value?defaultToGlobal=true"),
        org.assertj.core.groups.Tuple.tuple("GET", "/config"),
        org.assertj.core.groups.Tuple.tuple("PUT", "/config/s-value"));
    assertThat(seen.get(2).body()).isEqualTo("{\"compatibility\":\"FULL_TRANSITIVE\"}");
  }

  @Test
  void refusesAConfigWithoutUrl() {
    assertThatThrownBy(() -> RegistryClientConfig.fromProperties(java.util.Map.of())).hasMessageContaining("schema.registry.url");
    assertThatThrownBy(() -> RegistryClientConfig.of("localhost:8081")).hasMessageContaining("not an absolute http(s) URL");
  }

  private static String quoted(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
