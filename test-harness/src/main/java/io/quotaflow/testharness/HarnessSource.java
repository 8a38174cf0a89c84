package io.quotaflow.testharness;

import java.util.Map;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Where {@link KafkaHarness} gets Kafka and a registry from, chosen by environment variables:
 * <ul>
 *   <li>nothing set, or {@code QUOTAFLOW_TEST_KAFKA=embedded}: the embedded broker and registry;
 *   <li>{@code QUOTAFLOW_TEST_BOOTSTRAP} and {@code QUOTAFLOW_TEST_REGISTRY} (or
 *       {@code QUOTAFLOW_TEST_KAFKA=external} with both): an external pair, used as it is;
 *   <li>{@code QUOTAFLOW_TEST_KAFKA=testcontainers}: the project's image ({@code QUOTAFLOW_TEST_IMAGE},
 *       default {@code quotaflow:dev}) running {@code quotaflow broker} in a container, through
 *       Testcontainers. Where no Docker engine is reachable or the image is missing, the run fails at
 *       once saying which, or, with {@code QUOTAFLOW_TEST_WITHOUT_DOCKER=skip} (what the build's
 *       {@code testcontainers} execution sets), the tests are skipped saying which.
 * </ul>
 */
sealed interface HarnessSource {
  String MODE = "QUOTAFLOW_TEST_KAFKA";
  String BOOTSTRAP = "QUOTAFLOW_TEST_BOOTSTRAP";
  String REGISTRY = "QUOTAFLOW_TEST_REGISTRY";
  String IMAGE = "QUOTAFLOW_TEST_IMAGE";
  String WITHOUT_DOCKER = "QUOTAFLOW_TEST_WITHOUT_DOCKER";
  String DEFAULT_IMAGE = "quotaflow:dev";

  record Embedded() implements HarnessSource {}

  /**
   * A container of the project's image running {@code quotaflow broker}.
   *
   * @param image the image name, as {@code docker images} lists it
   * @param skipWithoutDocker whether tests are skipped (rather than failed) where the container cannot run
   */
  record Container(String image, boolean skipWithoutDocker) implements HarnessSource {}

  record External(String bootstrapServers, String registryUrl) implements HarnessSource {}

  static HarnessSource fromEnvironment(Map<String, String> env) {
    String mode = blankToNull(env.get(MODE));
    String bootstrap = blankToNull(env.get(BOOTSTRAP));
    String registry = blankToNull(env.get(REGISTRY));
    if (mode == null) {
      return bootstrap == null && registry == null ? new Embedded() : external(bootstrap, registry);
    }
    return switch (mode.toLowerCase(java.util.Locale.ROOT)) {
      case "embedded" -> new Embedded();
      case "external" -> external(bootstrap, registry);
      case "testcontainers" -> container(env);
      default -> throw new ExtensionConfigurationException(MODE + "=" + mode + " is not known; use embedded (the "
          + "default), external (with " + BOOTSTRAP + " and " + REGISTRY + ") or testcontainers.");
    };
  }

  private static Container container(Map<String, String> env) {
    String image = blankToNull(env.get(IMAGE));
    String withoutDocker = blankToNull(env.get(WITHOUT_DOCKER));
    if (withoutDocker != null && !withoutDocker.equals("skip") && !withoutDocker.equals("fail")) {
      throw new ExtensionConfigurationException(WITHOUT_DOCKER + "=" + withoutDocker + " is not known; use fail (the "
          + "default) or skip.");
    }
    return new Container(image == null ? DEFAULT_IMAGE : image, "skip".equals(withoutDocker));
  }

  private static External external(String bootstrap, String registry) {
    if (bootstrap == null || registry == null) {
      throw new ExtensionConfigurationException("an external Kafka for tests needs both " + BOOTSTRAP + " (set: "
          + (bootstrap != null) + ") and " + REGISTRY + " (set: " + (registry != null) + ")");
    }
    return new External(bootstrap, registry);
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }
}
