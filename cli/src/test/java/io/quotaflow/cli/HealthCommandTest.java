package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class HealthCommandTest {
  private HttpServer server;
  private final StringWriter out = new StringWriter();

  @BeforeEach
  void serve() throws Exception {
    server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
    server.createContext("/ready", exchange -> { exchange.sendResponseHeaders(200, -1); exchange.close(); });
    server.createContext("/starting", exchange -> { exchange.sendResponseHeaders(503, -1); exchange.close(); });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private int health(String path) {
    return new CommandLine(new HealthCommand()).setOut(new PrintWriter(out, true))
        .execute("--url=http://localhost:" + server.getAddress().getPort() + path, "--timeout=5s");
  }

  @Test
  void status200IsHealthy() {
    assertThat(health("/ready")).isZero();
    assertThat(out.toString()).contains("/ready 200");
  }

  @Test
  void anyOtherStatusIsUnhealthy() {
    assertThat(health("/starting")).isEqualTo(1);
    assertThat(out.toString()).contains("/starting 503");
  }

  @Test
  void noAnswerIsUnhealthy() {
    int port = server.getAddress().getPort();
    server.stop(0);
    assertThat(health("/ready")).isEqualTo(1);
    assertThat(out.toString()).contains("localhost:" + port + "/ready no answer");
  }
}
