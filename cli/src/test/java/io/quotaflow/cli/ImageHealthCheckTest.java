package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.quotaflow.testharness.ExternalCommand;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** deploy/image/quotaflow-health, the image's health check, against a real HTTP server. */
class ImageHealthCheckTest {
  private static final Path SCRIPT = Path.of("..", "deploy", "image", "quotaflow-health").toAbsolutePath();
  private HttpServer server;

  @BeforeEach
  void serve() throws Exception {
    server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
    server.createContext("/health", exchange -> { exchange.sendResponseHeaders(200, -1); exchange.close(); });
    server.createContext("/subjects", exchange -> {
      byte[] body = "[]".getBytes();
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.createContext("/starting", exchange -> { exchange.sendResponseHeaders(503, -1); exchange.close(); });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private int check(String... args) throws Exception {
    List<String> command = new java.util.ArrayList<>(List.of("bash", SCRIPT.toString()));
    command.addAll(List.of(args));
    return ExternalCommand.run(Path.of("."), Duration.ofSeconds(30), command).exitCode();
  }

  private String port() {
    return String.valueOf(server.getAddress().getPort());
  }

  @Test
  void status200OnHealthByDefaultIsHealthy() throws Exception {
    assertThat(check(port())).isZero();
    assertThat(check("localhost:" + port(), "/subjects")).isZero();
  }

  @Test
  void anyOtherStatusIsUnhealthy() throws Exception {
    assertThat(check(port(), "/starting")).isEqualTo(1);
    assertThat(check(port(), "/nothing-here")).isEqualTo(1);
  }

  @Test
  void noAnswerIsUnhealthy() throws Exception {
    String port = port();
    server.stop(0);
    assertThat(check(port)).isEqualTo(1);
  }
}
