package io.quotaflow.testharness;

import io.quotaflow.schemas.registry.SchemaRegistryClient;
import io.quotaflow.schemas.registry.SchemaRegistryClients;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;

/**
 * What a test needs to reach Kafka and the schema registry; injected by {@link KafkaHarness}.
 *
 * @param bootstrapServers for {@code bootstrap.servers}
 * @param registryUrl for {@code schema.registry.url}
 */
public record KafkaEnv(String bootstrapServers, String registryUrl) {

  /** {@code bootstrap.servers} alone; add the client's own settings to a copy. */
  public Map<String, Object> clientConfig() {
    return Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
  }

  /** A new REST client of the registry (with an empty cache, so it sees what the server says). */
  public SchemaRegistryClient registryClient() {
    return SchemaRegistryClients.create(registryUrl);
  }

  /** A new admin client; the caller closes it. */
  public Admin admin() {
    return Admin.create(clientConfig());
  }
}
