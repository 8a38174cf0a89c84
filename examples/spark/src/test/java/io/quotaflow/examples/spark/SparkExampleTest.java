package io.quotaflow.examples.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.NodePartitioner;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;

/**
 * ReadSamples' stream, on a local Spark, decodes every sample our serializer wrote to the embedded
 * broker, through the schema the registry holds. Built only with {@code -Pspark-example}.
 */
@WithKafka
class SparkExampleTest {
  private static final int SAMPLES = 6;

  @Test
  void sparkExampleDecodesEverySample(KafkaEnv kafka) throws Exception {
    Topics topics = Topics.create(new Topics.Settings(TestTopics.uniquePrefix("spark"), 3, true), kafka.registryClient());
    Topic<String, CgroupSample> topic = topics.samples();
    TestTopics.create(kafka, topic);
    List<CgroupSample> written = write(kafka, topic);
    Path work = Files.createDirectories(Path.of(System.getProperty("quotaflow.spark.work", "target/spark-work")));

    SparkSession spark = SparkSession.builder().master("local[1]").appName("quotaflow-spark-example-test")
        .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "1").getOrCreate();
    try {
      String schema = ReadSamples.latestValueSchema(kafka.registryUrl(), topic.name());
      StreamingQuery query = ReadSamples.decoded(spark, kafka.bootstrapServers(), topic.name(), schema)
          .writeStream().format("memory").queryName("decoded_samples")
          .option("checkpointLocation", work.resolve("checkpoint-" + topic.name()).toString())
          // Everything in the topic now, then the query ends by itself: no waiting on a clock.
          .trigger(Trigger.AvailableNow())
          .start();
      query.awaitTermination();

      List<Row> rows = new ArrayList<>(spark.table("decoded_samples").collectAsList());
      rows.sort(Comparator.comparingLong(row -> row.getAs("seq")));
      assertThat(rows).hasSize(SAMPLES);
      for (int i = 0; i < SAMPLES; i++) {
        CgroupSample expected = written.get(i);
        Row row = rows.get(i);
        assertThat((String) row.getAs("key")).isEqualTo(expected.getNode() + "/" + expected.getTask());
        assertThat((Integer) row.getAs("schema_id")).isPositive();
        assertThat((String) row.getAs("node")).isEqualTo(expected.getNode());
        assertThat((String) row.getAs("task")).isEqualTo(expected.getTask());
        assertThat((Long) row.getAs("ts_ms")).isEqualTo(expected.getTsMs());
        assertThat((Long) row.getAs("cpu_usage_usec")).isEqualTo(expected.getCpuUsageUsec());
        assertThat((Long) row.getAs("memory_bytes")).isEqualTo(expected.getMemoryBytes());
        assertThat((Long) row.getAs("memory_anon_bytes")).isEqualTo(expected.getMemoryAnonBytes());
        assertThat((Double) row.getAs("cpu_quota_cores")).isEqualTo(expected.getCpuQuotaCores());
        assertThat((String) row.getAs("state")).isEqualTo(expected.getState().name());
      }
    } finally {
      spark.stop();
    }
  }

  private static List<CgroupSample> write(KafkaEnv kafka, Topic<String, CgroupSample> topic) {
    List<CgroupSample> written = new ArrayList<>();
    Map<String, Object> config = new HashMap<>(kafka.clientConfig());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, NodePartitioner.class.getName());
    try (KafkaProducer<String, CgroupSample> producer =
             new KafkaProducer<>(config, new StringSerializer(), topic.valueSerde().serializer())) {
      for (int i = 0; i < SAMPLES; i++) {
        CgroupSample sample = CgroupSample.newBuilder().setNode("node-" + (i % 2)).setTask("task-" + i)
            .setTsMs(1_767_225_600_000L + i * 1000L).setCpuUsageUsec(5_000_000L * (i + 1))
            .setMemoryBytes(512L * 1024 * 1024 + i).setMemoryAnonBytes(i % 2 == 0 ? 256L * 1024 * 1024 + i : null)
            .setCpuQuotaCores(i % 2 == 0 ? null : 1.5)
            .setState(i == SAMPLES - 1 ? SampleState.GONE : SampleState.RUNNING).setSeq(i).build();
        producer.send(new ProducerRecord<>(topic.name(), sample.getNode() + "/" + sample.getTask(), sample));
        written.add(sample);
      }
      producer.flush();
    }
    return written;
  }
}
