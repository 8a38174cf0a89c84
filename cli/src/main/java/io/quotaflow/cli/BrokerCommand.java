package io.quotaflow.cli;

import io.quotaflow.embedded.BrokerSettings;
import io.quotaflow.embedded.EmbeddedPair;
import io.quotaflow.embedded.Ports;
import io.quotaflow.process.ProcessException;
import io.quotaflow.process.ProcessLifecycle;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code quotaflow broker}: an embedded Kafka broker (KRaft, one combined node) and a schema
 * registry in this process, printing their addresses, until Ctrl-C. For running the collector,
 * streams app and enforcer as separate processes, as in production.
 */
@Command(
    name = "broker",
    mixinStandardHelpOptions = true,
    description = {
        "Run a Kafka broker (KRaft, one node) and a schema registry in this process and print their addresses.",
        "Ctrl-C stops both cleanly. Without --data-dir the data lives in a temporary directory deleted on exit."})
public final class BrokerCommand implements Callable<Integer> {
  static final int DEFAULT_KAFKA_PORT = 9092;
  static final int DEFAULT_REGISTRY_PORT = 8081;
  /** A Ctrl-C waits this long for the clean stop before the JVM exits regardless. */
  private final ProcessLifecycle lifecycle = new ProcessLifecycle("broker", Duration.ofSeconds(60));

  @Option(names = "--port", paramLabel = "PORT",
      description = "Kafka client port (default: " + DEFAULT_KAFKA_PORT + " when free, else a free port; 0: any free port).")
  Integer port;

  @Option(names = "--controller-port", paramLabel = "PORT", defaultValue = "0",
      description = "KRaft controller port (default: a free port).")
  int controllerPort;

  @Option(names = "--registry-port", paramLabel = "PORT",
      description = "Schema registry HTTP port (default: " + DEFAULT_REGISTRY_PORT + " when free, else a free port; 0: any free port).")
  Integer registryPort;

  @Option(names = "--host", paramLabel = "HOST", defaultValue = "localhost",
      description = "Host name or address both listen on and advertise (default: ${DEFAULT-VALUE}).")
  String host;

  @Option(names = "--advertised-host", paramLabel = "HOST",
      description = "Host name clients are told to connect to, when not --host: e.g. with --host 0.0.0.0 in a container, "
          + "the service name or the host whose port is mapped to --port (default: --host).")
  String advertisedHost;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "Keep the broker's data (topics, offsets, the registry's _schemas topic) here across runs; "
          + "formatted on first use.")
  Path dataDir;

  @Option(names = "--registry-basic-auth", paramLabel = "USER:PASSWORD",
      description = "Require HTTP basic authentication on the schema registry.")
  String registryBasicAuth;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try (ProcessLifecycle.Running running = lifecycle.begin()) {
      int kafkaPort = choosePort(host, "--port", port, DEFAULT_KAFKA_PORT, err);
      int httpPort = choosePort(host, "--registry-port", registryPort, DEFAULT_REGISTRY_PORT, err);
      BrokerSettings broker = BrokerSettings.defaults().withHost(host).withPort(kafkaPort)
          .withControllerPort(controllerPort).withDataDir(dataDir).withAdvertisedHost(advertisedHost);
      try (EmbeddedPair pair = EmbeddedPair.start(broker,
          registry -> registry.withHost(host).withPort(httpPort).withBasicAuth(registryBasicAuth))) {
        printAddresses(out, pair);
        lifecycle.awaitStopRequest();
        out.println("Stopping...");
        out.flush();
      }
      out.println("Stopped.");
      out.flush();
      return 0;
    } catch (IllegalArgumentException | IllegalStateException | java.io.UncheckedIOException e) {
      // One line and exit 1, printed by the shared handler (ProcessCommandLine) as for every command.
      throw new ProcessException(e.getMessage(), e);
    }
  }

  /** Asks a running {@link #call} to stop, as Ctrl-C does. */
  void requestStop() {
    lifecycle.requestStop();
  }

  /** A given port as given (refused at once when taken); no port: the default when free, else any free one. */
  static int choosePort(String host, String option, Integer given, int preferred, PrintWriter err) {
    if (given != null) {
      if (given != 0 && !Ports.isFree(host, given)) {
        throw new IllegalArgumentException("port " + given + " on " + host + " (" + option + ") is in use");
      }
      return given;
    }
    int chosen = Ports.preferred(host, preferred);
    if (chosen != preferred) {
      err.println("Port " + preferred + " on " + host + " is in use; using " + chosen + " (choose with " + option + ").");
      err.flush();
    }
    return chosen;
  }

  private void printAddresses(PrintWriter out, EmbeddedPair pair) {
    out.println("Kafka bootstrap   " + pair.bootstrapServers());
    out.println("Schema registry   " + pair.registryUrl());
    out.println("Data directory    " + pair.kafka().dataDir()
        + (pair.kafka().isTemporary() ? "  (temporary, deleted on exit)" : "  (kept; formatted "
        + (pair.kafka().formattedDataDir() ? "now)" : "before, reused)")));
    out.printf("Ready in %.1f s. Ctrl-C stops both.%n", pair.kafka().startupTime().toMillis() / 1000.0);
    out.flush();
  }
}
