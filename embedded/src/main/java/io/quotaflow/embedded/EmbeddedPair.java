package io.quotaflow.embedded;

import java.util.function.UnaryOperator;

/**
 * An embedded broker and a schema registry storing its schemas on it: what tests,
 * {@code quotaflow broker} and {@code quotaflow demo} run. Closing stops the registry first, then the
 * broker it writes to.
 */
public final class EmbeddedPair implements AutoCloseable {
  private final EmbeddedKafka kafka;
  private final EmbeddedSchemaRegistry registry;

  private EmbeddedPair(EmbeddedKafka kafka, EmbeddedSchemaRegistry registry) {
    this.kafka = kafka;
    this.registry = registry;
  }

  /** A broker on a temporary directory and a registry, both on free ports. */
  public static EmbeddedPair start() {
    return start(BrokerSettings.defaults(), registry -> registry);
  }

  /**
   * @param registrySettings adjusts the registry's settings, which start as
   *     {@link RegistrySettings#forBroker} of the started broker
   */
  public static EmbeddedPair start(BrokerSettings brokerSettings, UnaryOperator<RegistrySettings> registrySettings) {
    EmbeddedKafka kafka = EmbeddedKafka.start(brokerSettings);
    try {
      RegistrySettings settings = registrySettings.apply(RegistrySettings.forBroker(kafka.bootstrapServers()));
      return new EmbeddedPair(kafka, EmbeddedSchemaRegistry.start(settings));
    } catch (RuntimeException | Error e) {
      kafka.close();
      throw e;
    }
  }

  public EmbeddedKafka kafka() {
    return kafka;
  }

  public EmbeddedSchemaRegistry registry() {
    return registry;
  }

  public String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  public String registryUrl() {
    return registry.url();
  }

  @Override
  public void close() {
    try {
      registry.close();
    } finally {
      kafka.close();
    }
  }
}
