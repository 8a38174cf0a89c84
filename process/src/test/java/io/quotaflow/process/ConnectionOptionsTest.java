package io.quotaflow.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
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

  private static ConnectionOptions parse(String... args) {
    Client client = new Client();
    new CommandLine(client).parseArgs(args);
    return client.connection;
  }

  @Test
  void theDefaultsAreALocalBrokerAndRegistry() {
    ConnectionOptions options = parse();
    assertThat(options.bootstrap()).isEqualTo("localhost:9092");
    assertThat(options.registryUrl()).isEqualTo("http://localhost:8081");
    assertThat(options.topicPrefix()).isEqualTo("quotaflow.");
    assertThat(options.partitions()).isEqualTo(12);
    assertThat(options.clientProperties()).containsExactlyEntriesOf(java.util.Map.of("bootstrap.servers", "localhost:9092"));
  }

  @Test
  void theKafkaConfigFileIsMergedIntoEveryClientAndTheBootstrapFlagWins(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("client.properties");
    Files.writeString(file, "security.protocol=SASL_SSL\nbasic.auth.user.info=u:p\nbootstrap.servers=from-file:9092\n");
    ConnectionOptions options = parse("--kafka-config", file.toString(), "--bootstrap", "kafka:9093");
    assertThat(options.clientProperties())
        .containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("basic.auth.user.info", "u:p")
        .containsEntry("bootstrap.servers", "kafka:9093");
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
  }

  @Test
  void theTopicSettingsFollowTheFlags() {
    assertThat(parse("--topic-prefix", "t.", "--partitions", "3").topicSettings())
        .extracting(s -> s.prefix(), s -> s.partitions()).containsExactly("t.", 3);
  }
}
