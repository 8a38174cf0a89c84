package io.quotaflow.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.GateTable;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.PoolState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every Avro contract goes serializer → real broker → deserializer through the real registry, on
 * the catalogue's own topics and serdes.
 */
@WithKafka
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SchemaRoundTripTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();

  private record Contract<V extends SpecificRecord>(Topic<String, V> topic, Class<V> type) {}

  private Topics topics;
  private List<Contract<?>> contracts;

  @BeforeAll
  void createCatalogue(KafkaEnv kafka) {
    topics = Topics.create(new Topics.Settings(TestTopics.uniquePrefix("roundtrip"), 3, true), kafka.registryClient());
    TestTopics.createAll(kafka, topics);
    contracts = List.of(
        new Contract<>(topics.samples(), CgroupSample.class),
        new Contract<>(topics.nodes(), NodeStatus.class),
        new Contract<>(topics.taskSpecs(), TaskSpec.class),
        new Contract<>(topics.poolConfigs(), PoolConfig.class),
        new Contract<>(topics.clusterConfig(), ClusterConfig.class),
        new Contract<>(topics.cpuDecisions(), CpuDecision.class),
        new Contract<>(topics.freezeDecisions(), FreezeDecision.class),
        new Contract<>(topics.poolState(), PoolState.class),
        new Contract<>(topics.enforcementResults(), EnforcementResult.class),
        new Contract<>(topics.gateTables(), GateTable.class));
  }

  @Test
  void theContractsCoverEverySchemaFile() throws IOException {
    Path avroDir = Path.of(System.getProperty("quotaflow.avro.dir", "../schemas/src/main/avro"));
    Set<String> declared;
    try (Stream<Path> files = Files.list(avroDir)) {
      declared = files.filter(f -> f.toString().endsWith(".avsc")).map(SchemaRoundTripTest::fullName).collect(Collectors.toSet());
    }
    assertThat(declared).isNotEmpty();
    assertThat(contracts.stream().map(c -> c.type().getName()).collect(Collectors.toSet())).isEqualTo(declared);
  }

  @Test
  void everyContractRoundTripsThroughBrokerAndRegistry(KafkaEnv kafka) {
    for (Contract<?> contract : contracts) {
      roundTrip(kafka, contract);
    }
  }

  private <V extends SpecificRecord> void roundTrip(KafkaEnv kafka, Contract<V> contract) {
    Topic<String, V> topic = contract.topic();
    V full = AvroSamples.of(contract.type(), 1, true);
    V sparse = AvroSamples.of(contract.type(), 2, false);
    Map<String, Object> config = new HashMap<>(kafka.clientConfig());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<String, V> producer = new KafkaProducer<>(config, new StringSerializer(), topic.valueSerde().serializer())) {
      producer.send(new ProducerRecord<>(topic.name(), "node-1/task-1", full));
      producer.send(new ProducerRecord<>(topic.name(), "node-1/task-2", sparse));
      producer.flush();
    }

    List<ConsumerRecord<String, V>> read = KafkaWait.records(kafka, topic, 2, TIMEOUT);
    assertThat(read).extracting(ConsumerRecord::value).as(topic.name()).containsExactlyInAnyOrder(full, sparse);

    SchemaRegistryClient registry = kafka.registryClient();
    int registeredId = registry.getLatestSchemaMetadata(topic.name() + "-value").id();
    assertThat(registry.getSchemaById(registeredId)).isEqualTo(SpecificData.get().getSchema(contract.type()));
    for (ConsumerRecord<byte[], byte[]> raw : KafkaWait.records(kafka, topic.name(), new ByteArrayDeserializer(),
        new ByteArrayDeserializer(), 2, TIMEOUT)) {
      assertThat(raw.value()[0]).as("Confluent magic byte").isZero();
      assertThat(ByteBuffer.wrap(raw.value(), 1, 4).getInt()).as("schema id after the magic byte").isEqualTo(registeredId);
    }
  }

  private static String fullName(Path avsc) {
    try {
      var schema = JSON.readTree(avsc.toFile());
      return schema.get("namespace").asText() + "." + schema.get("name").asText();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + avsc, e);
    }
  }
}
