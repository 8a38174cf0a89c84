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
 * picked free up front and the test's data directory: so that after a SIGKILL it starts again on the
 * same addresses and data, as a restarted broker does.
 */
final class BrokerProcess implements AutoCloseable {
  private static final String HOST = "localhost";
  private static final Pattern BOOTSTRAP = Pattern.compile("^Kafka bootstrap\\s+(\\S+)", Pattern.MULTILINE);
  private static final Pattern REGISTRY = Pattern.compile("^Schema registry\\s+(http\\S+)", Pattern.MULTILINE);
  /** The line it prints once both serve. */
  private static final Pattern READY = Pattern.compile("^Ready in", Pattern.MULTILINE);
  /** A cold JVM formatting KRaft storage, or a restart waiting out the killed broker's session, on two shared cores. */
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  /** The log cleaner's buffer and the registry share the heap with the broker. */
  private static final List<String> JVM_OPTIONS = List.of("-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  private final List<String> args;
  private final Path logs;
  private ChildJvm jvm;
  private KafkaEnv kafka;

  private BrokerProcess(List<String> args, Path logs) {
    this.args = args;
    this.logs = logs;
  }

  /** Starts a broker on free ports and waits until it serves. */
  static BrokerProcess start(Path dataDir, Path logs) throws IOException {
    BrokerProcess broker = new BrokerProcess(List.of("broker", "--host", HOST,
        "--port", Integer.toString(Ports.free(HOST)), "--registry-port", Integer.toString(Ports.free(HOST)),
        "--controller-port", Integer.toString(Ports.free(HOST)), "--data-dir", dataDir.toString()), logs);
    broker.restart();
    return broker;
  }

  /** Starts it again, on the same ports and data directory, after {@link #kill}; waits until it serves. */
  void restart() throws IOException {
    jvm = ChildJvm.start("broker", logs, JVM_OPTIONS, QuotaflowCli.class.getName(), args, Map.of());
    try {
      KafkaEnv addresses = new KafkaEnv(jvm.awaitOutput(BOOTSTRAP, START_TIMEOUT).group(1),
          jvm.awaitOutput(REGISTRY, START_TIMEOUT).group(1));
      jvm.awaitOutput(READY, START_TIMEOUT);
      kafka = addresses;
    } catch (RuntimeException | Error e) {
      jvm.close();
      throw e;
    }
  }

  /** SIGKILL: no controlled shutdown, nothing flushed but what the OS already had. */
  void kill() {
    jvm.kill();
  }

  /** Its addresses, as the test's clients and the other processes' flags use them. */
  KafkaEnv kafka() {
    return kafka;
  }

  String tail() {
    return jvm.tail();
  }

  @Override
  public void close() {
    jvm.close();
  }
}
