package io.quotaflow.streams.it;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.schemas.NodePartitioner;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import io.quotaflow.streams.topology.StreamsRunner;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.TestTopics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;

/** One streams app under test on the shared broker: its own topics (unique prefix), application id and state dir. */
final class StreamsAppFixture {

  static final int PARTITIONS = 3;

  final KafkaEnv kafka;
  final String applicationId;
  final Topics topics;
  final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  final SchemaRegistryClient registry;

  StreamsAppFixture(KafkaEnv kafka, String name) {
    this(kafka, name, kafka.registryClient(), PARTITIONS, false);
  }

  /** An app that reads schemas from {@code registry} rather than the shared one. */
  StreamsAppFixture(KafkaEnv kafka, String name, SchemaRegistryClient registry) {
    this(kafka, name, registry, PARTITIONS, false);
  }

  /**
   * @param partitions of the node-keyed topics
   * @param samplesKeepProducerTime the samples topic keeps the producer's timestamps instead of the
   *     broker's append time, so two runs over the same records see the same record times
   */
  StreamsAppFixture(KafkaEnv kafka, String name, SchemaRegistryClient registry, int partitions,
      boolean samplesKeepProducerTime) {
    this.kafka = kafka;
    this.registry = registry;
    String prefix = TestTopics.uniquePrefix(name);
    this.applicationId = prefix + "app";
    this.topics = Topics.create(new Topics.Settings(prefix, partitions, true), registry);
    // Created up front, as a deployment has them, so input can be produced before the app starts.
    List<Topic<?, ?>> all = new java.util.ArrayList<>(topics.all());
    all.addAll(topics.internal());
    if (samplesKeepProducerTime) {
      Topic<String, ?> samples = topics.samples();
      Map<String, String> configs = new HashMap<>(samples.configs());
      configs.put(org.apache.kafka.common.config.TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "CreateTime");
      all.set(all.indexOf(samples), new Topic<>(samples.name(), samples.keySerde(), samples.valueSerde(),
          samples.partitions(), samples.nodePartitioned(), configs));
    }
    try (org.apache.kafka.clients.admin.Admin admin = kafka.admin()) {
      io.quotaflow.schemas.TopicAdmin.createMissing(admin, all, Optional.empty());
    }
  }

  StreamsRunner start(Path stateDir) throws InterruptedException {
    return start(stateDir, Map.of());
  }

  /** Starts an instance with {@code extra} Streams settings (such as its {@code application.server}). */
  StreamsRunner start(Path stateDir, Map<String, Object> extra) throws InterruptedException {
    return start(stateDir, extra, meters);
  }

  /** Starts an instance whose meters go to {@code meterRegistry} (a Prometheus one, to be scraped). */
  StreamsRunner start(Path stateDir, io.micrometer.core.instrument.MeterRegistry meterRegistry) throws InterruptedException {
    return start(stateDir, Map.of(), meterRegistry);
  }

  private StreamsRunner start(Path stateDir, Map<String, Object> extra,
      io.micrometer.core.instrument.MeterRegistry meterRegistry) throws InterruptedException {
    Map<String, Object> overrides = new HashMap<>(extra);
    overrides.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    overrides.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    // A killed instance leaves the group only when its session times out: the broker's minimum keeps tests short.
    overrides.put(StreamsConfig.consumerPrefix(org.apache.kafka.clients.consumer.ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6_000);
    overrides.put(StreamsConfig.consumerPrefix(org.apache.kafka.clients.consumer.ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1_000);
    StreamsRunner runner = StreamsRunner.start(new StreamsRunner.Settings(kafka.clientConfig(), overrides,
        topics.settings(), Optional.empty()), registry, meterRegistry);
    if (!runner.awaitRunning(Duration.ofSeconds(90))) {
      runner.close();
      throw new AssertionError("streams app did not reach RUNNING: " + runner.state());
    }
    return runner;
  }

  /** Produces node-partitioned records with the topic's serdes, as every producer must. */
  <V> void produce(Topic<String, V> topic, List<Map.Entry<String, V>> records) {
    Map<String, Object> props = new HashMap<>(kafka.clientConfig());
    props.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, NodePartitioner.class.getName());
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000); // a missing topic fails fast instead of blocking each send
    try (KafkaProducer<String, V> producer = new KafkaProducer<>(props, topic.keySerde().serializer(), topic.valueSerde().serializer())) {
      for (Map.Entry<String, V> record : records) {
        producer.send(new ProducerRecord<>(topic.name(), record.getKey(), record.getValue()));
      }
      producer.flush();
    }
  }

  /** Produces node-partitioned records in the given order, each with its own record timestamp. */
  <V> void produceAt(Topic<String, V> topic, List<ProducerRecord<String, V>> records) {
    Map<String, Object> props = new HashMap<>(kafka.clientConfig());
    props.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, NodePartitioner.class.getName());
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000);
    try (KafkaProducer<String, V> producer = new KafkaProducer<>(props, topic.keySerde().serializer(), topic.valueSerde().serializer())) {
      records.forEach(producer::send);
      producer.flush();
    }
  }

  /** Records in {@code topic}: the sum of its partitions' end offsets. */
  long recordCount(String topic) throws Exception {
    try (org.apache.kafka.clients.admin.Admin admin = kafka.admin()) {
      Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> latest = new HashMap<>();
      admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions()
          .forEach(p -> latest.put(new org.apache.kafka.common.TopicPartition(topic, p.partition()),
              org.apache.kafka.clients.admin.OffsetSpec.latest()));
      return admin.listOffsets(latest).all().get().values().stream().mapToLong(o -> o.offset()).sum();
    }
  }

  /** The changelog topic of the app's store {@code store}. */
  String changelog(String store) {
    return applicationId + "-" + store + "-changelog";
  }

  /** Produces raw bytes to an explicit partition: how a broken producer writes. */
  void produceRaw(String topic, int partition, String key, byte[] value) {
    try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(kafka.clientConfig(), new StringSerializer(), new ByteArraySerializer())) {
      producer.send(new ProducerRecord<>(topic, partition, key, value));
      producer.flush();
    }
  }
}
