package io.quotaflow.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.process.ProcessCommandLine;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The streams app's command, as {@code quotaflow streams} and {@link StreamsMain} run it: start, serve, stop. */
@WithKafka
class StreamsCommandTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(120);

  @TempDir Path stateDir;

  @Test
  void runsUntilAskedToStopThenStopsCleanlyWithExitCode0(KafkaEnv kafka) throws Exception {
    String prefix = TestTopics.uniquePrefix("streams-cmd");
    StreamsCommand command = new StreamsCommand();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine line = ProcessCommandLine.of(command).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> line.execute("--bootstrap", kafka.bootstrapServers(),
        "--registry", kafka.registryUrl(), "--topic-prefix", prefix, "--partitions", "2", "--application-id", prefix + "app",
        "--state-dir", stateDir.toString(), "--http-host", "127.0.0.1", "--http-port", "0", "--commit-interval", "100ms"));
    try {
      KafkaWait.until(TIMEOUT, "the streams app to start (out: " + out + ", err: " + err + ")",
          () -> out.toString().contains("advertised as"));
      Matcher port = Pattern.compile("on port (\\d+)").matcher(out.toString());
      assertThat(port.find()).isTrue();
      HttpResponse<String> health = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + port.group(1) + "/health")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(health.body()).contains("\"live\":true");

      command.requestStop();
      assertThat(exit.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(ProcessCommandLine.OK);
      assertThat(out.toString()).contains("quotaflow streams: stopping after the current commit...")
          .endsWith("quotaflow streams: stopped." + System.lineSeparator());
    } finally {
      command.requestStop();
    }
  }

  @Test
  void aPortInUseIsOneLineAndExitCode1() throws Exception {
    try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      StringWriter err = new StringWriter();
      int code = ProcessCommandLine.of(new StreamsCommand()).setErr(new PrintWriter(err, true))
          .execute("--http-host", "127.0.0.1", "--http-port", Integer.toString(taken.getLocalPort()),
              "--state-dir", stateDir.toString());
      assertThat(code).isEqualTo(ProcessCommandLine.FAILURE);
      assertThat(err.toString().lines()).singleElement().asString()
          .startsWith("quotaflow streams: cannot serve /metrics and /health on 127.0.0.1:" + taken.getLocalPort());
    }
  }
}
