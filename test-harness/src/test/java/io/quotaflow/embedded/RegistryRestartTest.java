package io.quotaflow.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.registry.CompatibilityLevel;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import io.quotaflow.schemas.registry.SchemaRegistryClients;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

/** A registry of its own on its own store topic, stopped and started again. */
@WithKafka
class RegistryRestartTest {

  @Test
  void restartedRegistryServesTheSameIdsVersionsAndLevels(KafkaEnv kafka) throws Exception {
    String topic = TestTopics.uniqueName("_schemas-restart");
    RegistrySettings settings = RegistrySettings.forBroker(kafka.bootstrapServers()).withTopic(topic);
    Schema a1 = TestSchemas.v1("A");
    Schema a2 = TestSchemas.v2WithDefault("A");
    Schema b1 = TestSchemas.v1("B");
    int idA1;
    int idA2;
    int idB1;
    try (EmbeddedSchemaRegistry first = EmbeddedSchemaRegistry.start(settings)) {
      SchemaRegistryClient client = SchemaRegistryClients.create(first.url());
      idA1 = client.register("a-value", a1);
      client.updateCompatibility("a-value", CompatibilityLevel.FULL_TRANSITIVE);
      idA2 = client.register("a-value", a2);
      idB1 = client.register("b-value", b1);
      client.register("b2-value", b1); // same schema, another subject: no new id
      client.updateCompatibility(null, CompatibilityLevel.FORWARD);
    }

    try (EmbeddedSchemaRegistry second = EmbeddedSchemaRegistry.start(settings)) {
      SchemaRegistryClient client = SchemaRegistryClients.create(second.url());
      assertThat(client.getSchemaById(idA1)).isEqualTo(a1);
      assertThat(client.getSchemaById(idA2)).isEqualTo(a2);
      assertThat(client.getSchemaById(idB1)).isEqualTo(b1);
      assertThat(client.getAllSubjects()).containsExactly("a-value", "b-value", "b2-value");
      assertThat(client.getAllVersions("a-value")).containsExactly(1, 2);
      assertThat(client.getLatestSchemaMetadata("a-value").id()).isEqualTo(idA2);
      assertThat(client.getId("b2-value", b1)).isEqualTo(idB1);
      assertThat(client.getCompatibility("a-value")).isEqualTo(CompatibilityLevel.FULL_TRANSITIVE);
      assertThat(client.getCompatibility(null)).isEqualTo(CompatibilityLevel.FORWARD);
      assertThat(client.register("a-value", a1)).as("known schema keeps its id").isEqualTo(idA1);

      int next = client.register("c-value", TestSchemas.v1("C"));
      assertThat(next).as("a new schema gets a new id, none reused").isGreaterThan(Math.max(idA2, idB1));
    }

    try (Admin admin = kafka.admin()) {
      TopicDescription store = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
      assertThat(store.partitions()).hasSize(1);
      ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
      Map<ConfigResource, Config> configs = admin.describeConfigs(List.of(resource)).all().get();
      assertThat(configs.get(resource).get(TopicConfig.CLEANUP_POLICY_CONFIG).value()).isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);
    }
  }
}
