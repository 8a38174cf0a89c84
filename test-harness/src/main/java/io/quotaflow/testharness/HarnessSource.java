package io.quotaflow.testharness;

import java.util.Map;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Where {@link KafkaHarness} gets Kafka and a registry from, chosen by environment variables:
 * <ul>
 *   <li>nothing set, or {@code QUOTAFLOW_TEST_KAFKA=embedded}: the embedded broker and registry;
 *   <li>{@code QUOTAFLOW_TEST_BOOTSTRAP} and {@code QUOTAFLOW_TEST_REGISTRY} (or
 *       {@code QUOTAFLOW_TEST_KAFKA=external} with both): an external pair, used as it is;
 *   <li>{@code QUOTAFLOW_TEST_KAFKA=testcontainers}: refused with an explanation, since this build
 *       carries no Testcontainers dependency and these machines run no Docker engine.
 * </ul>
 */
sealed interface HarnessSource {
  String MODE = "QUOTAFLOW_TEST_KAFKA";
  String BOOTSTRAP = "QUOTAFLOW_TEST_BOOTSTRAP";
  String REGISTRY = "QUOTAFLOW_TEST_REGISTRY";

  record Embedded() implements HarnessSource {}

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
      case "testcontainers" -> throw new ExtensionConfigurationException(MODE + "=testcontainers asks for a Kafka "
          + "container, but this build has no Testcontainers dependency and these machines run no Docker engine. "
          + "Unset " + MODE + " to use the embedded broker and registry (what CI uses), or set " + BOOTSTRAP + " and "
          + REGISTRY + " to test against a running pair.");
      default -> throw new ExtensionConfigurationException(MODE + "=" + mode + " is not known; use embedded (the "
          + "default), external (with " + BOOTSTRAP + " and " + REGISTRY + ") or testcontainers.");
    };
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
