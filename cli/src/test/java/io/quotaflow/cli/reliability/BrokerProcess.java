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
 * {@code quotaflow broker} (Kafka and the schema registry) as its own JVM, as in production. Its ports
 * are picked free up front and its data directory is the test's, so that it can be started again
 * after a SIGKILL on the same addresses and data.
 */
final class BrokerProcess implements AutoCloseable {
  private static final String HOST = "localhost";
  private static final Pattern BOOTSTRAP = Pattern.compile("^Kafka bootstrap\\s+(\\S+)", Pattern.MULTILINE);
  private static final Pattern REGISTRY = Pattern.compile("^Schema registry\\s+(http\\S+)", Pattern.MULTILINE);
  /** A cold JVM formatting KRaft storage on two shared cores. */
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

  private final Path dataDir;
  private final Path logs;
  private final int kafkaPort = Ports.free(HOST);
  private final int registryPort = Ports.free(HOST);
  private final int controllerPort = Ports.free(HOST);
  private ChildJvm jvm;
  private KafkaEnv kafka;

  private BrokerProcess(Path dataDir, Path logs) {
    this.dataDir = dataDir;
    this.logs = logs;
  }

  /** Starts a broker on free ports and waits until it printed its addresses. */
  static BrokerProcess start(Path dataDir, Path logs) throws IOException {
    BrokerProcess broker = new BrokerProcess(dataDir, logs);
    broker.startAgain();
    return broker;
  }

  /** Starts it (again) on the same ports and data directory; waits until it printed its addresses. */
  void startAgain() throws IOException {
    jvm = ChildJvm.start("broker", logs, QuotaflowCli.class.getName(), List.of("broker",
        "--host", HOST, "--port", Integer.toString(kafkaPort), "--registry-port", Integer.toString(registryPort),
        "--controller-port", Integer.toString(controllerPort), "--data-dir", dataDir.toString()), Map.of());
    try {
      String bootstrap = jvm.awaitOutput(BOOTSTRAP, START_TIMEOUT).group(1);
      String registry = jvm.awaitOutput(REGISTRY, START_TIMEOUT).group(1);
      kafka = new KafkaEnv(bootstrap, registry);
    } catch (RuntimeException | Error e) {
      jvm.close();
      throw e;
    }
  }

  /** Its addresses, as the test's clients and the other processes' flags use them. */
  KafkaEnv kafka() {
    return kafka;
  }

  /** SIGKILL. */
  void kill() {
    jvm.kill();
  }

  /** The end of its output, for a failure message. */
  String tail() {
    return jvm.tail();
  }

  @Override
  public void close() {
    if (jvm != null) {
      jvm.close();
    }
  }
}
