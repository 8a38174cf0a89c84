package io.quotaflow.streams.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.embedded.EmbeddedSchemaRegistry;
import io.quotaflow.embedded.Ports;
import io.quotaflow.embedded.RegistrySettings;
import io.quotaflow.schemas.NodePartitioning;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.registry.RegistryClientConfig;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import io.quotaflow.schemas.registry.SchemaRegistryClients;
import io.quotaflow.schemas.serde.AvroSerializer;
import io.quotaflow.streams.topology.StreamsRunner;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A record the app cannot decode because the registry is down is not poison: it is retried until
 * the registry answers, and never dead-lettered.
 */
@WithKafka
class RegistryOutageIntegrationTest {

  /** CgroupSample as a later release might write it: one more field, with a default. */
  private static Schema newerSample() {
    Schema current = CgroupSample.getClassSchema();
    List<Schema.Field> fields = new ArrayList<>();
    current.getFields().forEach(f -> fields.add(new Schema.Field(f, f.schema())));
    fields.add(new Schema.Field("cpu_pressure_some_avg10", Schema.create(Schema.Type.DOUBLE), "PSI some avg10, percent.", 0.0));
    return Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false, fields);
  }

  private static GenericRecord newer(Schema schema, String task, long tsMs) {
    GenericRecord record = new GenericData.Record(schema);
    record.put("node", "n1");
    record.put("task", task);
    record.put("ts_ms", tsMs);
    record.put("cpu_usage_usec", 0L);
    record.put("memory_bytes", 1L << 20);
    record.put("memory_anon_bytes", null);
    record.put("memory_peak_bytes", null);
    record.put("nr_throttled", 0L);
    record.put("throttled_usec", null);
    record.put("cpu_quota_cores", null);
    record.put("state", new GenericData.EnumSymbol(schema.getField("state").schema(), SampleState.RUNNING.name()));
    record.put("seq", 0L);
    record.put("cpu_pressure_some_avg10", 1.5);
    return record;
  }

  @Test
  void aRecordWaitsForTheRegistryInsteadOfGoingToTheDlq(KafkaEnv kafka, @TempDir Path stateDir) throws Exception {
    int port = Ports.free("localhost");
    RegistrySettings settings = RegistrySettings.forBroker(kafka.bootstrapServers()).withPort(port)
        .withTopic(TestTopics.uniqueName("schemas"));
    EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.start(settings);
    SchemaRegistryClient appClient = SchemaRegistryClients.create(Map.of(RegistryClientConfig.URL, registry.url(),
        RegistryClientConfig.MAX_RETRIES, "1"));
    StreamsAppFixture app = new StreamsAppFixture(kafka, "outage", appClient);
    String samples = app.topics.samples().name();
    int partition = NodePartitioning.partitionOfNode("n1", StreamsAppFixture.PARTITIONS);
    try (StreamsRunner runner = app.start(stateDir)) {
      long now = System.currentTimeMillis();
      app.produce(app.topics.samples(), List.of(Map.entry("n1/before",
          CgroupSample.newBuilder().setNode("n1").setTask("before").setTsMs(now).setCpuUsageUsec(0).setMemoryBytes(1).build())));
      KafkaWait.records(kafka, app.topics.cpuDecisions(), 1, Duration.ofSeconds(60));

      // A producer on a newer schema registers it while the registry is up, and keeps its id.
      SchemaRegistryClient producerClient = SchemaRegistryClients.create(Map.of(RegistryClientConfig.URL, registry.url()));
      AvroSerializer<GenericRecord> serializer = new AvroSerializer<>(producerClient, false, true);
      Schema schema = newerSample();
      serializer.serialize(samples, newer(schema, "warmup", now));
      registry.close();

      app.produceRaw(samples, partition, "n1/during", serializer.serialize(samples, newer(schema, "during", now + 1000)));
      KafkaWait.until(Duration.ofSeconds(60), "a stream thread to fail on the unreachable registry",
          () -> app.meters.counter("quotaflow.streams.threads.replaced").count() >= 1);
      assertThat(app.recordCount(app.topics.dlq().name())).isZero();

      registry = EmbeddedSchemaRegistry.start(settings); // same port, same store topic: same ids
      List<ConsumerRecord<String, CpuDecision>> decisions = KafkaWait.records(kafka, app.topics.cpuDecisions(), 2, Duration.ofSeconds(90));
      assertThat(decisions).extracting(ConsumerRecord::key).containsExactly("n1/before", "n1/during");
      assertThat(app.recordCount(app.topics.dlq().name())).isZero();
    } finally {
      registry.close();
    }
  }
}
