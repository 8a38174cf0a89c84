package io.quotaflow.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.schemas.registry.CompatibilityLevel;
import io.quotaflow.schemas.registry.InMemorySchemaRegistryClient;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

class TopicsTest {

  private final Topics topics = Topics.create(Topics.Settings.defaults(), new InMemorySchemaRegistryClient());

  @Test
  void namesCarryThePrefix() {
    assertThat(topics.samples().name()).isEqualTo("quotaflow.samples");
    assertThat(topics.taskSpecs().name()).isEqualTo("quotaflow.task-specs");
    Topics custom = Topics.create(new Topics.Settings("staging.qf.", 3, true), new InMemorySchemaRegistryClient());
    assertThat(custom.all()).allSatisfy(t -> assertThat(t.name()).startsWith("staging.qf."));
  }

  @Test
  void nodeKeyedTopicsShareOnePartitionCount() {
    assertThat(topics.nodePartitioned()).extracting(Topic::name).containsExactlyInAnyOrder(
        "quotaflow.samples", "quotaflow.nodes", "quotaflow.task-specs", "quotaflow.cpu-decisions",
        "quotaflow.freeze-decisions", "quotaflow.gate-tables", "quotaflow.enforcement-results");
    assertThat(topics.nodePartitioned()).allSatisfy(t -> assertThat(t.partitions()).isEqualTo(12));
    assertThat(topics.clusterConfig().partitions()).isEqualTo(1);
  }

  @Test
  void compactedTopicsKeepSevenDaysOfHistory() {
    NewTopic specs = topics.taskSpecs().newTopic((short) 3);
    assertThat(specs.replicationFactor()).isEqualTo((short) 3);
    assertThat(specs.configs())
        .containsEntry(TopicConfig.CLEANUP_POLICY_CONFIG, "compact")
        .containsEntry(TopicConfig.MIN_COMPACTION_LAG_MS_CONFIG, "604800000");
    assertThat(topics.samples().configs())
        .containsEntry(TopicConfig.CLEANUP_POLICY_CONFIG, "delete")
        .containsEntry(TopicConfig.RETENTION_MS_CONFIG, "604800000")
        .containsEntry(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime");
    assertThat(topics.dlq().configs()).containsEntry(TopicConfig.RETENTION_MS_CONFIG, "604800000");
  }

  @Test
  void valueSerdesRoundTripThroughTheCatalogue() {
    byte[] bytes = topics.samples().valueSerde().serializer().serialize(topics.samples().name(), ContractExamples.sample());
    assertThat(topics.samples().valueSerde().deserializer().deserialize(topics.samples().name(), bytes))
        .isEqualTo(ContractExamples.sample());
  }

  @Test
  void registeringSchemasPinsEverySubjectToFullTransitive() {
    InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
    topics.registerSchemas(registry);
    topics.registerSchemas(registry);
    assertThat(registry.getAllSubjects()).hasSize(10).contains("quotaflow.samples-value", "quotaflow.cluster-config-value");
    for (String subject : registry.getAllSubjects()) {
      assertThat(registry.getCompatibility(subject)).isEqualTo(CompatibilityLevel.FULL_TRANSITIVE);
      assertThat(registry.getAllVersions(subject)).containsExactly(1);
    }
  }

  @Test
  void refusesNonsenseSettings() {
    assertThatThrownBy(() -> new Topics.Settings("q.", 0, true)).hasMessageContaining("at least 1");
    assertThatThrownBy(() -> new Topics.Settings(null, 12, true)).hasMessageContaining("prefix");
  }
}
