package io.quotaflow.cli;

import io.quotaflow.embedded.EmbeddedSchemaRegistry;
import io.quotaflow.embedded.RegistrySettings;
import io.quotaflow.process.ProcessException;
import io.quotaflow.process.ProcessLifecycle;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code quotaflow registry}: the schema registry {@code quotaflow broker} runs, alone, against a
 * Kafka cluster given by {@code --bootstrap}. Where Confluent's image cannot be pulled (the compose
 * stack's local override) this stands in for it; it speaks the same REST subset and keeps its schemas
 * in the same kind of compacted {@code _schemas} topic.
 */
@Command(
    name = "registry",
    mixinStandardHelpOptions = true,
    description = {
        "Run the project's schema registry (the Confluent REST subset Quotaflow uses) against a Kafka cluster.",
        "Schemas are kept in a compacted _schemas topic on that cluster, created when missing. Ctrl-C stops it."})
public final class RegistryCommand implements Callable<Integer> {
  private final ProcessLifecycle lifecycle = new ProcessLifecycle("registry", Duration.ofSeconds(30));

  @Option(names = {"--bootstrap", "--bootstrap-server"}, paramLabel = "HOST:PORT[,...]",
      defaultValue = "${env:QUOTAFLOW_BOOTSTRAP:-localhost:9092}",
      description = "Kafka to keep the schemas on (env QUOTAFLOW_BOOTSTRAP; default localhost:9092).")
  String bootstrap;

  @Option(names = "--host", paramLabel = "HOST", defaultValue = "${env:QUOTAFLOW_REGISTRY_HOST:-0.0.0.0}",
      description = "Address to listen on (env QUOTAFLOW_REGISTRY_HOST; default 0.0.0.0).")
  String host;

  @Option(names = "--port", paramLabel = "PORT", defaultValue = "${env:QUOTAFLOW_REGISTRY_PORT:-8081}",
      description = "HTTP port (env QUOTAFLOW_REGISTRY_PORT; default 8081; 0: any free port).")
  int port;

  @Option(names = "--replication-factor", paramLabel = "N", defaultValue = "${env:QUOTAFLOW_REGISTRY_REPLICATION_FACTOR:-1}",
      description = "Replication factor of the _schemas topic when it is created (env QUOTAFLOW_REGISTRY_REPLICATION_FACTOR; default 1).")
  int replicationFactor;

  @Option(names = "--topic", paramLabel = "TOPIC", defaultValue = RegistrySettings.DEFAULT_TOPIC,
      description = "The compacted topic the schemas are kept in (default ${DEFAULT-VALUE}, as Confluent's).")
  String topic;

  @Option(names = "--basic-auth", paramLabel = "USER:PASSWORD",
      description = "Require HTTP basic authentication.")
  String basicAuth;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    try (ProcessLifecycle.Running running = lifecycle.begin()) {
      RegistrySettings settings = RegistrySettings.forBroker(bootstrap).withHost(host).withPort(port).withTopic(topic)
          .withReplicationFactor(replicationFactor).withBasicAuth(basicAuth);
      try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.start(settings)) {
        out.println("Schema registry   " + registry.url() + "  (schemas on " + bootstrap + ")");
        out.flush();
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
}
