package io.quotaflow.embedded;

import java.time.Duration;
import java.util.Map;
import javax.net.ssl.SSLContext;

/**
 * How to start an {@link EmbeddedSchemaRegistry}.
 *
 * @param bootstrapServers the Kafka cluster that holds the registry's topic
 * @param host the host the HTTP server binds to and names in its URL
 * @param port the HTTP port; 0 picks a free one
 * @param topic the compacted topic that stores schemas and compatibility levels (Confluent's
 *     {@code kafkastore.topic}); one registry per topic
 * @param replicationFactor of the topic when this registry creates it; 0: three, or fewer when the
 *     cluster has fewer brokers
 * @param basicAuthUserInfo {@code user:password} every request must present with HTTP basic
 *     authentication, or null for none
 * @param kafkaConfig extra Kafka client properties (SASL, TLS) for the store's producer, consumer and admin
 * @param storeTimeout how long a write to, or the initial read of, the topic may take
 * @param tls the server's key material: HTTPS with it, or plain HTTP when null
 */
public record RegistrySettings(
    String bootstrapServers,
    String host,
    int port,
    String topic,
    int replicationFactor,
    String basicAuthUserInfo,
    Map<String, Object> kafkaConfig,
    Duration storeTimeout,
    SSLContext tls) {

  /** Confluent's default store topic. */
  public static final String DEFAULT_TOPIC = "_schemas";

  public RegistrySettings {
    if (bootstrapServers == null || bootstrapServers.isBlank()) {
      throw new IllegalArgumentException("the registry needs Kafka bootstrap servers for its store topic");
    }
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("registry host must not be blank");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("registry port must be 0 (any free port) or 1..65535, was " + port);
    }
    if (topic == null || topic.isBlank()) {
      throw new IllegalArgumentException("registry store topic must not be blank");
    }
    if (replicationFactor < 0) {
      throw new IllegalArgumentException("replication factor must be 0 (automatic) or positive, was " + replicationFactor);
    }
    if (basicAuthUserInfo != null && !basicAuthUserInfo.contains(":")) {
      throw new IllegalArgumentException("basic auth must be given as user:password");
    }
    kafkaConfig = Map.copyOf(kafkaConfig);
    if (storeTimeout == null || storeTimeout.isNegative() || storeTimeout.isZero()) {
      throw new IllegalArgumentException("store timeout must be positive, was " + storeTimeout);
    }
  }

  /** localhost, a free port, topic {@value #DEFAULT_TOPIC}, no authentication, 30 s store timeout. */
  public static RegistrySettings forBroker(String bootstrapServers) {
    return new RegistrySettings(bootstrapServers, "localhost", 0, DEFAULT_TOPIC, 0, null, Map.of(), Duration.ofSeconds(30), null);
  }

  public RegistrySettings withHost(String newHost) {
    return new RegistrySettings(bootstrapServers, newHost, port, topic, replicationFactor, basicAuthUserInfo, kafkaConfig, storeTimeout, tls);
  }

  public RegistrySettings withPort(int newPort) {
    return new RegistrySettings(bootstrapServers, host, newPort, topic, replicationFactor, basicAuthUserInfo, kafkaConfig, storeTimeout, tls);
  }

  public RegistrySettings withTopic(String newTopic) {
    return new RegistrySettings(bootstrapServers, host, port, newTopic, replicationFactor, basicAuthUserInfo, kafkaConfig, storeTimeout, tls);
  }

  public RegistrySettings withReplicationFactor(int factor) {
    return new RegistrySettings(bootstrapServers, host, port, topic, factor, basicAuthUserInfo, kafkaConfig, storeTimeout, tls);
  }

  public RegistrySettings withBasicAuth(String userInfo) {
    return new RegistrySettings(bootstrapServers, host, port, topic, replicationFactor, userInfo, kafkaConfig, storeTimeout, tls);
  }

  public RegistrySettings withKafkaConfig(Map<String, Object> config) {
    return new RegistrySettings(bootstrapServers, host, port, topic, replicationFactor, basicAuthUserInfo, config, storeTimeout, tls);
  }

  /** Serves HTTPS with {@code context}'s key material instead of HTTP. */
  public RegistrySettings withTls(SSLContext context) {
    return new RegistrySettings(bootstrapServers, host, port, topic, replicationFactor, basicAuthUserInfo, kafkaConfig, storeTimeout, context);
  }

  public RegistrySettings withStoreTimeout(Duration timeout) {
    return new RegistrySettings(bootstrapServers, host, port, topic, replicationFactor, basicAuthUserInfo, kafkaConfig, timeout, tls);
  }
}
