package io.quotaflow.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.process.Environment;
import io.quotaflow.process.OpsAddress;
import io.quotaflow.process.ProcessCommandLine;
import io.quotaflow.process.UsageException;
import io.quotaflow.process.Warnings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** How {@code quotaflow streams} turns its flags, variables and {@code --streams-config} into settings, before anything starts. */
class StreamsCommandOptionsTest {

  private final StringWriter err = new StringWriter();
  private final Warnings warnings = new Warnings(new PrintWriter(err, true), "quotaflow streams");

  private static StreamsCommand parse(Map<String, String> env, String... args) {
    StreamsCommand command = new StreamsCommand();
    new CommandLine(command).parseArgs(args);
    command.environment = Environment.of(env);
    return command;
  }

  @Test
  void streamsConfigIsMergedWithTheFlags() {
    Map<String, Object> settings = parse(Map.of(), "--streams-config", "statestore.cache.max.bytes=134217728",
        "--streams-config", "producer.compression.type=lz4", "--threads", "3").streamsSettings(warnings);
    assertThat(settings).containsEntry("statestore.cache.max.bytes", "134217728")
        .containsEntry("producer.compression.type", "lz4")
        .containsEntry("num.stream.threads", 3)
        .containsEntry("commit.interval.ms", 50L);
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void aKeyTheAppOwnsIsRefusedByName() {
    assertThatThrownBy(() -> parse(Map.of(), "--streams-config", "processing.guarantee=at_least_once").streamsSettings(warnings))
        .isInstanceOf(UsageException.class)
        .hasMessage("--streams-config processing.guarantee is set by the app: each decision is published exactly once"
            + " (exactly_once_v2)");
    assertThatThrownBy(() -> parse(Map.of(), "--streams-config", "default.value.serde=x").streamsSettings(warnings))
        .hasMessageStartingWith("--streams-config default.value.serde is set by the app");
    assertThatThrownBy(() -> parse(Map.of(), "--streams-config", "commit.interval.ms=5").streamsSettings(warnings))
        .hasMessage("--streams-config commit.interval.ms has a flag: use --commit-interval");
  }

  @Test
  void aRefusedKeyExitsWithTheUsageCodeAndOneLine() {
    StringWriter lines = new StringWriter();
    int code = ProcessCommandLine.of(new StreamsCommand()).setErr(new PrintWriter(lines, true))
        .execute("--streams-config", "application.server=elsewhere:1");
    assertThat(code).isEqualTo(ProcessCommandLine.USAGE);
    assertThat(lines.toString().lines()).singleElement().asString()
        .startsWith("quotaflow streams: --streams-config application.server is set by the app");
  }

  @Test
  void theCommitIntervalIsADurationAndTheMillisecondFlagAndVariableStillWorkWithAWarning() {
    assertThat(parse(Map.of(), "--commit-interval", "500ms").streamsSettings(warnings)).containsEntry("commit.interval.ms", 500L);
    assertThat(parse(Map.of("QUOTAFLOW_COMMIT_INTERVAL", "2s")).streamsSettings(warnings)).containsEntry("commit.interval.ms", 2000L);
    assertThat(err.toString()).isEmpty();

    assertThat(parse(Map.of(), "--commit-interval-ms", "250").streamsSettings(warnings)).containsEntry("commit.interval.ms", 250L);
    assertThat(parse(Map.of("QUOTAFLOW_COMMIT_INTERVAL_MS", "300")).streamsSettings(warnings))
        .containsEntry("commit.interval.ms", 300L);
    assertThat(err.toString().lines()).containsExactly(
        "quotaflow streams: warning: --commit-interval-ms is deprecated; use --commit-interval 250ms",
        "quotaflow streams: warning: QUOTAFLOW_COMMIT_INTERVAL_MS is deprecated; use QUOTAFLOW_COMMIT_INTERVAL=300ms");
  }

  @Test
  void theHttpAddressHasItsOwnVariablesAndTheSharedOldOnesWarn() {
    StreamsCommand own = parse(Map.of("QUOTAFLOW_STREAMS_HTTP_PORT", "9501", "QUOTAFLOW_STREAMS_HTTP_HOST", "127.0.0.1",
        "QUOTAFLOW_HTTP_PORT", "1"));
    assertThat(own.opsAddress(warnings)).isEqualTo(new OpsAddress("127.0.0.1", 9501));
    assertThat(parse(Map.of()).opsAddress(warnings).port()).isEqualTo(9401);
    assertThat(parse(Map.of("QUOTAFLOW_STREAMS_HTTP_PORT", "9501"), "--http-port", "0").opsAddress(warnings).port()).isZero();
    assertThat(err.toString()).isEmpty();

    assertThat(parse(Map.of("QUOTAFLOW_HTTP_PORT", "9601")).opsAddress(warnings).port()).isEqualTo(9601);
    assertThat(err.toString().lines())
        .containsExactly("quotaflow streams: warning: QUOTAFLOW_HTTP_PORT is deprecated; use QUOTAFLOW_STREAMS_HTTP_PORT");
  }
}
