package io.quotaflow.cli.reliability;

import io.quotaflow.cli.QuotaflowCli;
import io.quotaflow.embedded.Ports;
import io.quotaflow.testharness.ChildJvm;
import io.quotaflow.testharness.KafkaEnv;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code quotaflow broker} (Kafka and the schema registry) as its own JVM, as in production, on ports
 * picked free up front and the test's data directory.
 */
final class BrokerProcess implements AutoCloseable {
  private static final String HOST = "localhost";
  private static final Pattern BOOTSTRAP = Pattern.compile("^Kafka bootstrap\\s+(\\S+)", Pattern.MULTILINE);
  private static final Pattern REGISTRY = Pattern.compile("^Schema registry\\s+(http\\S+)", Pattern.MULTILINE);
  /** A cold JVM formatting KRaft storage on two shared cores. */
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

  private final ChildJvm jvm;
  private final KafkaEnv kafka;

  private BrokerProcess(ChildJvm jvm, KafkaEnv kafka) {
    this.jvm = jvm;
    this.kafka = kafka;
  }

  /** Starts a broker on free ports and waits until it printed its addresses. */
  static BrokerProcess start(Path dataDir, Path logs) throws IOException {
    ChildJvm jvm = ChildJvm.start("broker", logs, QuotaflowCli.class.getName(), List.of("broker", "--host", HOST,
        "--port", Integer.toString(Ports.free(HOST)), "--registry-port", Integer.toString(Ports.free(HOST)),
        "--controller-port", Integer.toString(Ports.free(HOST)), "--data-dir", dataDir.toString()), Map.of());
    try {
      return new BrokerProcess(jvm, new KafkaEnv(jvm.awaitOutput(BOOTSTRAP, START_TIMEOUT).group(1),
          jvm.awaitOutput(REGISTRY, START_TIMEOUT).group(1)));
    } catch (RuntimeException | Error e) {
      jvm.close();
      throw e;
    }
  }

  /** Its addresses, as the test's clients and the other processes' flags use them. */
  KafkaEnv kafka() {
    return kafka;
  }

  @Override
  public void close() {
    jvm.close();
  }
}
