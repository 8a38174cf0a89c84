package io.quotaflow.streams.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.process.ops.Health;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.registry.InMemorySchemaRegistryClient;
import io.quotaflow.streams.topology.QuotaflowTopology;
import io.quotaflow.streams.topology.StreamsConfigFactory;
import io.quotaflow.testharness.FuzzBudget;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Random requests, as raw bytes on a socket, against the streams app's ops server: {@code /metrics},
 * {@code /health} and the live-state API (attached to a Kafka Streams that never starts, so a request
 * that names a key is answered 503, to retry). Methods, paths with traversal, percent-escapes that do
 * not decode, overlong segments, bytes that are not UTF-8, odd headers and bodies: every request that
 * is not a GET of a served path gets a 4xx, none a 5xx or no answer, and the server still answers a
 * good request after each.
 */
@AddLifecycleHook(FuzzBudget.class)
class OpsHttpFuzzTest {

  private static final int ANSWER_TIMEOUT_MS = 10_000;

  private static OpsServer ops;
  private static KafkaStreams streams;
  private static Path stateDir;
  private static final AtomicInteger requests = new AtomicInteger();
  private static final Map<Integer, AtomicInteger> statuses = new java.util.concurrent.ConcurrentSkipListMap<>();

  @BeforeContainer
  static void startServer() throws IOException {
    stateDir = Files.createTempDirectory("ops-http-fuzz");
    Topics topics = Topics.create(Topics.Settings.defaults(), new InMemorySchemaRegistryClient());
    ops = OpsServer.start("127.0.0.1", 0, OpsServer.newRegistry("streams"), () -> new Health(true, true, -1, "TEST"));
    // Never started, so it never connects to this address.
    streams = new KafkaStreams(QuotaflowTopology.build(topics), StreamsConfigFactory.create("127.0.0.1:1",
        topics.dlq().name(), Map.of(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString(),
            StreamsConfig.APPLICATION_SERVER_CONFIG, "127.0.0.1:" + ops.port())));
    LiveStateApi.serveOn(ops).attach(streams, new HostInfo("127.0.0.1", ops.port()));
  }

  @AfterContainer
  static void stopServer() throws IOException {
    streams.close();
    ops.close();
    System.out.printf("OpsHttpFuzzTest: %d requests, statuses %s%n", requests.get(), statuses);
    try (var files = Files.walk(stateDir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** One request as it goes on the wire. */
  record Request(String method, byte[] target, List<String> headers, byte[] body, boolean lengthMatches) {

    String rawPath() {
      String text = new String(target, StandardCharsets.ISO_8859_1);
      int query = text.indexOf('?');
      return query < 0 ? text : text.substring(0, query);
    }

    byte[] bytes() {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.writeBytes((method + " ").getBytes(StandardCharsets.ISO_8859_1));
      out.writeBytes(target);
      out.writeBytes(" HTTP/1.1\r\nHost: fuzz\r\nConnection: close\r\n".getBytes(StandardCharsets.ISO_8859_1));
      for (String header : headers) {
        out.writeBytes((header + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      }
      // A length shorter than the body leaves bytes the server must not take for a next request.
      int length = lengthMatches ? body.length : body.length / 2;
      if (body.length > 0) {
        out.writeBytes(("Content-Length: " + length + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      }
      out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
      out.writeBytes(body);
      return out.toByteArray();
    }

    @Override
    public String toString() {
      String shown = new String(target, StandardCharsets.ISO_8859_1);
      return method + " " + (shown.length() > 120 ? shown.substring(0, 120) + "…(" + shown.length() + ")" : shown)
          + " headers=" + headers + " body=" + body.length + (lengthMatches ? "" : " (Content-Length short)");
    }
  }

  /** What the server may answer: 200 for /metrics and /health, 503 for a key of the live state, a 4xx for anything else. */
  private static int expectedClass(Request request) {
    if (!request.method().equals("GET")) {
      return 4;
    }
    try {
      new java.net.URI(new String(request.target(), StandardCharsets.ISO_8859_1));
    } catch (java.net.URISyntaxException e) {
      return 4; // the HTTP server refuses a target that is no URI (400) before any handler sees it
    }
    String path = request.rawPath();
    if (path.equals("/metrics") || path.equals("/health")) {
      return 2;
    }
    if (path.startsWith("/pools") || path.startsWith("/nodes") || path.startsWith("/tasks")) {
      try {
        Route.parse(path);
        return 5; // a key that cannot be read yet: 503, retry
      } catch (ApiException e) {
        return 4;
      } catch (RuntimeException e) {
        return 4; // the server must turn this into a 4xx; the assertion below says if it did not
      }
    }
    return 4;
  }

  @Property(tries = 300)
  void everyBadRequestGetsA4xxAndAGoodOneIsAnsweredAfterIt(@ForAll("requests") Request request) throws IOException {
    int status = exchange(request.bytes());
    requests.incrementAndGet();
    statuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
    int expected = expectedClass(request);
    if (expected == 5) {
      assertThat(status).as("%s", request).isEqualTo(503);
    } else {
      assertThat(status / 100).as("%s answered %d", request, status).isEqualTo(expected);
    }
    Request good = new Request("GET", "/health".getBytes(StandardCharsets.US_ASCII), List.of(), new byte[0], true);
    assertThat(exchange(good.bytes())).as("GET /health after %s", request).isEqualTo(200);
  }

  /** A client that sends half a request and waits (a slow or stuck scraper, or a slowloris) must not stop the server answering others. */
  @net.jqwik.api.Example
  void aClientThatSendsHalfARequestDoesNotStopTheServer() throws IOException {
    try (Socket stuck = new Socket("127.0.0.1", ops.port())) {
      stuck.getOutputStream().write("GET /metr".getBytes(StandardCharsets.US_ASCII));
      stuck.getOutputStream().flush();
      Request good = new Request("GET", "/health".getBytes(StandardCharsets.US_ASCII), List.of(), new byte[0], true);
      long start = System.nanoTime();
      assertThat(exchange(good.bytes())).isEqualTo(200);
      System.out.printf("OpsHttpFuzzTest: answered beside a stuck client in %d ms%n", (System.nanoTime() - start) / 1_000_000);
    }
  }

  /** Sends {@code request} and returns the status of the answer; fails on no answer within the timeout. */
  private static int exchange(byte[] request) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", ops.port()), ANSWER_TIMEOUT_MS);
      socket.setSoTimeout(ANSWER_TIMEOUT_MS);
      OutputStream out = socket.getOutputStream();
      out.write(request);
      out.flush();
      InputStream in = socket.getInputStream();
      while (true) {
        String statusLine = readLine(in);
        assertThat(statusLine).as("status line").matches("HTTP/1\\.1 \\d{3}( .*)?");
        int status = Integer.parseInt(statusLine.substring(9, 12));
        if (status >= 200) {
          return status;
        }
        while (!readLine(in).isEmpty()) { // an interim answer (100 Continue to an Expect header): its headers, then the real one
        }
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError("no answer within " + ANSWER_TIMEOUT_MS + " ms", e);
    }
  }

  private static String readLine(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int b = in.read(); b != -1 && b != '\n'; b = in.read()) {
      if (b != '\r') {
        line.append((char) b);
      }
    }
    return line.toString();
  }

  @Provide
  Arbitrary<Request> requests() {
    Arbitrary<String> methods = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, Arbitraries.just("GET")),
        net.jqwik.api.Tuple.of(4, Arbitraries.of("POST", "PUT", "DELETE", "HEAD", "PATCH", "OPTIONS", "TRACE", "get", "Get")),
        net.jqwik.api.Tuple.of(1, Arbitraries.strings().withCharRange('A', 'Z').ofMinLength(1).ofMaxLength(12)));
    Arbitrary<String> headerNames = Arbitraries.oneOf(
        Arbitraries.of("Accept", "Accept-Encoding", "X-Quotaflow-Forwarded-By", "Expect", "Range", "Cookie", "Authorization"),
        Arbitraries.strings().alpha().numeric().withChars('-', '_').ofMinLength(1).ofMaxLength(30));
    Arbitrary<String> headerValues = Arbitraries.oneOf(
        Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(200),
        Arbitraries.strings().withCharRange('\u0080', '\u00ff').ofMaxLength(50),
        Arbitraries.strings().withCharRange(' ', '~').ofMinLength(4_000).ofMaxLength(8_000));
    Arbitrary<String> headers = Combinators.combine(headerNames, headerValues).as((n, v) -> n + ": " + v);
    Arbitrary<byte[]> bodies = Arbitraries.oneOf(
        Arbitraries.just(new byte[0]),
        Arbitraries.bytes().array(byte[].class).ofMaxSize(2_000));
    return Combinators.combine(methods, targets(), headers.list().ofMaxSize(5), bodies, Arbitraries.of(true, true, false))
        .as(Request::new);
  }

  /** Request targets: the served paths and their neighbours, with hostile segments and queries. */
  private static Arbitrary<byte[]> targets() {
    Arbitrary<String> starts = Arbitraries.of("/metrics", "/health", "/pools", "/nodes", "/tasks", "", "/", "/metricsX",
        "/healthz", "/pools/prod", "/nodes/n1", "/tasks/n1", "/tasks/n1/t1", "//pools", "/../metrics", "/%2e%2e/health");
    Arbitrary<byte[]> segments = Arbitraries.oneOf(
        Arbitraries.of("..", ".", "%2e%2e", "%2E%2E%2F", "%2F", "%zz", "%", "%4", "%c3%28", "%ff%fe", "%00", "%0a", "n1", "t-1",
            "job:42@x", "a%20b", ".hidden", "+", "%25", "~", "x".repeat(129), "y".repeat(128)).map(s -> s.getBytes(StandardCharsets.ISO_8859_1)),
        // Characters a URI path may hold, so most reach the handlers; and any printable ones, which the server may refuse first.
        Arbitraries.strings().alpha().numeric().withChars("-._~!$&'()*+,;=:@%").ofMinLength(1).ofMaxLength(40)
            .map(s -> s.getBytes(StandardCharsets.ISO_8859_1)),
        Arbitraries.strings().withCharRange('!', '~').excludeChars('/', '?', '#').ofMinLength(1).ofMaxLength(40)
            .map(s -> s.getBytes(StandardCharsets.ISO_8859_1)),
        // Bytes that are not UTF-8 (nor ASCII), raw on the request line.
        Arbitraries.bytes().between((byte) 0x80, (byte) 0xff).array(byte[].class).ofMinSize(1).ofMaxSize(8),
        Arbitraries.strings().withCharRange('a', 'z').ofMinLength(2_000).ofMaxLength(20_000)
            .map(s -> s.getBytes(StandardCharsets.ISO_8859_1)));
    Arbitrary<String> queries = Arbitraries.oneOf(Arbitraries.just(""), Arbitraries.just("?"),
        Arbitraries.strings().alpha().numeric().withChars("-._~!$&'()*+,;=:@%/?").ofMaxLength(60).map(q -> "?" + q),
        Arbitraries.strings().withCharRange('!', '~').excludeChars('#').ofMaxLength(60).map(q -> "?" + q));
    return Combinators.combine(starts, segments.list().ofMaxSize(4), queries).as((start, parts, query) -> {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.writeBytes(start.getBytes(StandardCharsets.ISO_8859_1));
      for (byte[] part : parts) {
        out.write('/');
        out.writeBytes(part);
      }
      out.writeBytes(query.getBytes(StandardCharsets.ISO_8859_1));
      byte[] target = out.toByteArray();
      return target.length == 0 ? new byte[] {'/'} : target;
    });
  }
}
