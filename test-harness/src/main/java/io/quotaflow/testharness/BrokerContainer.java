package io.quotaflow.testharness;

import io.quotaflow.embedded.Ports;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.Slf4jLogConsumer;

/**
 * The project's image running {@code quotaflow broker}: Kafka and the schema registry in one container.
 *
 * <p>Kafka tells clients where to connect (its advertised listener), so the client port cannot be a
 * random mapping found out after the start, as the registry's is: a free host port is chosen first,
 * bound to the same port in the container, and the broker advertises the Docker host with it.
 */
final class BrokerContainer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BrokerContainer.class);
  private static final int REGISTRY_PORT = 8081;
  private static final int CONTROLLER_PORT = 9093;
  /** Generous: the JVM in the container starts the broker in seconds, but two shared cores can be slow. */
  private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(2);

  private final GenericContainer<?> container;
  private final KafkaEnv env;

  private BrokerContainer(GenericContainer<?> container, KafkaEnv env) {
    this.container = container;
    this.env = env;
  }

  /** Starts the container; fails with the reason when the engine or the image is missing. */
  static BrokerContainer start(String image) {
    DockerReadiness.whyNot(image).ifPresent(reason -> {
      throw new ExtensionConfigurationException(HarnessSource.MODE + "=testcontainers cannot run: " + reason);
    });
    String dockerHost = DockerClientFactory.instance().dockerHostIpAddress();
    int kafkaPort = Ports.free("0.0.0.0");
    @SuppressWarnings("resource") // closed by close(), when JUnit's root store closes this
    GenericContainer<?> container = new GenericContainer<>(image)
        .withCommand("broker", "--host", "0.0.0.0", "--advertised-host", dockerHost, "--port", Integer.toString(kafkaPort),
            "--controller-port", Integer.toString(CONTROLLER_PORT), "--registry-port", Integer.toString(REGISTRY_PORT))
        .withExposedPorts(REGISTRY_PORT)
        .withLogConsumer(new Slf4jLogConsumer(LOG).withPrefix("broker container"))
        .waitingFor(new BrokerReadyWait().withStartupTimeout(STARTUP_TIMEOUT));
    container.setPortBindings(List.of(kafkaPort + ":" + kafkaPort));
    try {
      container.start();
    } catch (RuntimeException e) {
      container.close();
      throw new ExtensionConfigurationException("the " + image + " container running quotaflow broker did not start: "
          + causes(e) + " (where no registry is reachable, Testcontainers' reaper image cannot be pulled: set "
          + "TESTCONTAINERS_RYUK_DISABLED=true; the harness stops its container itself)", e);
    }
    KafkaEnv env = new KafkaEnv(dockerHost + ":" + kafkaPort,
        "http://" + container.getHost() + ":" + container.getMappedPort(REGISTRY_PORT));
    return new BrokerContainer(container, env);
  }

  /** Testcontainers wraps the reason (the broker's output, a pull failure) two or three levels down. */
  private static String causes(Throwable e) {
    StringBuilder text = new StringBuilder(String.valueOf(e.getMessage()));
    for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
      text.append(": ").append(cause.getMessage());
    }
    return text.toString();
  }

  KafkaEnv env() {
    return env;
  }

  /** The container's id, for the log line that says where the tests' Kafka is. */
  String containerId() {
    return container.getContainerId();
  }

  @Override
  public void close() {
    container.stop();
  }
}
