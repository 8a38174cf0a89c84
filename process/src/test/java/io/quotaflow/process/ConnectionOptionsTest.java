package io.quotaflow.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class ConnectionOptionsTest {

  @Command(name = "client")
  static final class Client {
    @Mixin
    ConnectionOptions connection;
  }

  private final StringWriter err = new StringWriter();

  private ConnectionOptions parse(Map<String, String> env, String... args) {
    Client client = new Client();
    CommandLine commandLine = new CommandLine(client);
    commandLine.setErr(new PrintWriter(err, true));
    commandLine.parseArgs(args);
    return client.connection.environment(env);
  }

  private ConnectionOptions parse(String... args) {
    return parse(Map.of(), args);
  }

  private static Path file(Path dir, String content) throws Exception {
    Path file = dir.resolve("client.properties");
    Files.writeString(file, content);
    return file;
  }

  @Test
  void theDefaultsAreALocalBrokerAndRegistry() {
    ConnectionOptions options = parse();
    assertThat(options.bootstrap()).isEqualTo("localhost:9092");
    assertThat(options.registryUrl()).isEqualTo("http://localhost:8081");
    assertThat(options.topicPrefix()).isEqualTo("quotaflow.");
    assertThat(options.partitions()).isEqualTo(12);
    assertThat(options.clientProperties()).containsExactlyEntriesOf(Map.of("bootstrap.servers", "localhost:9092"));
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void theKafkaConfigFileWinsOverTheDefaults(@TempDir Path dir) throws Exception {
    Path file = file(dir, "security.protocol=SASL_SSL\nbasic.auth.user.info=u:p\nbootstrap.servers=broker:9092\n"
        + "schema.registry.url=https://registry:8081\n");
    ConnectionOptions options = parse("--kafka-config", file.toString());
    assertThat(options.bootstrap()).isEqualTo("broker:9092");
    assertThat(options.registryUrl()).isEqualTo("https://registry:8081");
    assertThat(options.clientProperties())
        .containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("basic.auth.user.info", "u:p")
        .containsEntry("bootstrap.servers", "broker:9092");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void aFlagWinsOverTheFileWithOneWarningLine(@TempDir Path dir) throws Exception {
    Path file = file(dir, "bootstrap.servers=broker:9092\nsecurity.protocol=SSL\n");
    ConnectionOptions options = parse("--kafka-config", file.toString(), "--bootstrap", "localhost:1");
    assertThat(options.clientProperties()).containsEntry("bootstrap.servers", "localhost:1")
        .containsEntry("security.protocol", "SSL");
    options.registryClient();
    assertThat(err.toString()).isEqualTo("quotaflow client: warning: --bootstrap localhost:1 overrides bootstrap.servers"
        + " broker:9092 from " + file + System.lineSeparator());
  }

  @Test
  void anEnvironmentVariableWinsOverTheFileAndAFlagOverTheVariable(@TempDir Path dir) throws Exception {
    Path file = file(dir, "schema.registry.url=http://file:8081\nbootstrap.servers=file:9092\n");
    Map<String, String> env = Map.of("QUOTAFLOW_KAFKA_CONFIG", file.toString(), "QUOTAFLOW_REGISTRY", "http://env:8081",
        "QUOTAFLOW_BOOTSTRAP", "env:9092");
    ConnectionOptions fromEnv = parse(env);
    assertThat(fromEnv.registryUrl()).isEqualTo("http://env:8081");
    assertThat(fromEnv.bootstrap()).isEqualTo("env:9092");
    assertThat(err.toString().lines()).containsExactly(
        "quotaflow client: warning: QUOTAFLOW_BOOTSTRAP env:9092 overrides bootstrap.servers file:9092 from " + file,
        "quotaflow client: warning: QUOTAFLOW_REGISTRY http://env:8081 overrides schema.registry.url http://file:8081 from "
            + file);

    ConnectionOptions fromFlags = parse(env, "--registry", "http://flag:8081", "--bootstrap", "flag:9092");
    assertThat(fromFlags.registryUrl()).isEqualTo("http://flag:8081");
    assertThat(fromFlags.bootstrap()).isEqualTo("flag:9092");
  }

  @Test
  void theSameValueInFlagAndFileIsNoConflict(@TempDir Path dir) throws Exception {
    Path file = file(dir, "bootstrap.servers=broker:9092\n");
    assertThat(parse("--kafka-config", file.toString(), "--bootstrap", "broker:9092").bootstrap()).isEqualTo("broker:9092");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void bootstrapServerIsAnAliasOfBootstrap() {
    assertThat(parse("--bootstrap-server", "kafka:9093").bootstrap()).isEqualTo("kafka:9093");
  }

  @Test
  void theTopicSettingsFollowTheFlagsThenTheEnvironment() {
    assertThat(parse("--topic-prefix", "t.", "--partitions", "3").topicSettings())
        .extracting(s -> s.prefix(), s -> s.partitions()).containsExactly("t.", 3);
    Map<String, String> env = Map.of("QUOTAFLOW_TOPIC_PREFIX", "e.", "QUOTAFLOW_PARTITIONS", "6");
    assertThat(parse(env).topicSettings()).extracting(s -> s.prefix(), s -> s.partitions()).containsExactly("e.", 6);
    assertThat(parse(env, "--partitions", "2").partitions()).isEqualTo(2);
    assertThatThrownBy(() -> parse(Map.of("QUOTAFLOW_PARTITIONS", "many")).partitions())
        .isInstanceOf(UsageException.class).hasMessage("QUOTAFLOW_PARTITIONS: not a number: many");
  }

  @Test
  void anUnreadableKafkaConfigIsOneLine(@TempDir Path dir) {
    Path missing = dir.resolve("missing.properties");
    assertThatThrownBy(() -> parse("--kafka-config", missing.toString()).clientProperties())
        .isInstanceOf(ProcessException.class)
        .hasMessageStartingWith("cannot read --kafka-config " + missing + ": ");
  }

  @Test
  void anEmptyKafkaConfigIsNone() {
    assertThat(parse("--kafka-config", "").clientProperties()).containsOnlyKeys("bootstrap.servers");
    assertThat(parse(Map.of("QUOTAFLOW_KAFKA_CONFIG", "")).clientProperties()).containsOnlyKeys("bootstrap.servers");
  }

  @Command(name = "reader")
  static final class Reader {
    @Mixin
    ClusterConnection connection;
  }

  @Test
  void aCommandThatCreatesNoTopicHasNoPartitionsFlagToIgnore() {
    Reader reader = new Reader();
    CommandLine commandLine = new CommandLine(reader);
    assertThat(commandLine.getCommandSpec().findOption("--partitions")).isNull();
    assertThat(commandLine.getCommandSpec().findOption("--bootstrap-server")).isNotNull();
    commandLine.parseArgs("--bootstrap", "kafka:9093");
    reader.connection.environment(Map.of("QUOTAFLOW_PARTITIONS", "not read"));
    assertThat(reader.connection.bootstrap()).isEqualTo("kafka:9093");
    assertThat(reader.connection.partitions()).isEqualTo(12);
  }
}
