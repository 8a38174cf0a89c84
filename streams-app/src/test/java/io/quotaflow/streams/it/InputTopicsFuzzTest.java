package io.quotaflow.streams.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.NodePartitioning;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.streams.topology.StreamsRunner;
import io.quotaflow.testharness.FuzzBudget;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.WithKafka;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad records on every topic the streams app reads — its five input topics, the enforcers' results
 * (their reflex freezes move the gate like samples) and its three internal ones, which any client
 * allowed to write them can reach — on a real broker and the real topology:
 * random bytes, valid records truncated, with bytes appended, a bad magic byte, an unknown schema id
 * or another topic's schema, a sample without a key or a value, keys that disagree with the value,
 * hostile and non-UTF-8 ids. Every one reaches the DLQ with its reason, and a valid sample sent after
 * each bad one still gets its decision. Bytes flipped inside a valid record may still decode to a
 * valid one, so those are fuzzed without the broker (AvroDeserializerFuzzTest, RecordChecksFuzzTest).
 */
@WithKafka
class InputTopicsFuzzTest {

  /** Bad records in CI; {@code -Pfuzz-long} multiplies them (FuzzBudget). */
  private static final int BAD_RECORDS = 160;

  private static final String[] NODES = {"fz-a", "fz-b", "fz-c", "fz-d"};

  private record Bad(String topic, Integer partition, byte[] key, byte[] value, String kind) {}

  @Test
  void everyBadRecordReachesTheDlqWithItsReasonAndEveryGoodOneAfterItIsDecided(KafkaEnv kafka, @TempDir Path stateDir)
      throws Exception {
    long seed = FuzzBudget.seedOrRandom();
    Random random = new Random(seed);
    int badCount = BAD_RECORDS * FuzzBudget.scale();
    StreamsAppFixture app = new StreamsAppFixture(kafka, "fuzz");
    long now = System.currentTimeMillis();
    int goodCount = badCount / 3;
    List<Map.Entry<String, TaskSpec>> specs = new ArrayList<>();
    for (int i = 0; i < goodCount; i++) {
      String node = NODES[i % NODES.length];
      specs.add(Map.entry(node + "/good-" + i, TaskSpec.newBuilder().setNode(node).setTask("good-" + i).setNcpus(1).build()));
    }
    app.produce(app.topics.taskSpecs(), specs);

    List<Bad> bad = new ArrayList<>();
    for (int i = 0; i < badCount; i++) {
      bad.add(badRecord(app, random, now));
    }
    Map<String, Long> byKind = bad.stream().collect(Collectors.groupingBy(b -> b.kind() + " on " + shortName(app, b.topic()),
        TreeMap::new, Collectors.counting()));

    try (StreamsRunner runner = app.start(stateDir);
        KafkaProducer<byte[], byte[]> raw = rawProducer(kafka)) {
      Serializer<CgroupSample> samples = app.topics.samples().valueSerde().serializer();
      int good = 0;
      for (int i = 0; i < bad.size(); i++) {
        Bad b = bad.get(i);
        raw.send(new ProducerRecord<>(b.topic(), b.partition(), b.key(), b.value()));
        if (i % 3 == 2 && good < goodCount) { // a valid sample after every third bad record
          String node = NODES[good % NODES.length];
          String task = "good-" + good;
          byte[] value = samples.serialize(app.topics.samples().name(), sample(node, task, now));
          raw.send(new ProducerRecord<>(app.topics.samples().name(), partitionOf(node),
              (node + "/" + task).getBytes(StandardCharsets.UTF_8), value));
          good++;
        }
      }
      raw.flush();
      assertThat(good).isEqualTo(goodCount);

      List<ConsumerRecord<String, CpuDecision>> decisions = KafkaWait.records(kafka, app.topics.cpuDecisions(), goodCount,
          Duration.ofSeconds(90));
      assertThat(decisions).extracting(ConsumerRecord::key).as("only the good tasks are decided")
          .allMatch(key -> key.matches("fz-[a-d]/good-\\d+"));
      assertThat(decisions.stream().map(ConsumerRecord::key).collect(Collectors.toSet())).hasSize(goodCount);

      List<ConsumerRecord<byte[], byte[]>> dlq = KafkaWait.records(kafka, app.topics.dlq().name(), new ByteArrayDeserializer(),
          new ByteArrayDeserializer(), badCount, Duration.ofSeconds(90));
      List<String> inputTopics = List.of(app.topics.samples().name(), app.topics.nodes().name(), app.topics.taskSpecs().name(),
          app.topics.poolConfigs().name(), app.topics.clusterConfig().name(), app.topics.enforcementResults().name(),
          app.topics.configBroadcast().name(), app.topics.memoryUsage().name(), app.topics.poolPartials().name());
      KafkaWait.consumerGroupCaughtUp(kafka, app.applicationId, inputTopics, Duration.ofSeconds(60));
      dlq = KafkaWait.records(kafka, app.topics.dlq().name(), new ByteArrayDeserializer(), new ByteArrayDeserializer(),
          badCount, Duration.ofSeconds(10));

      Map<String, Long> exceptions = new TreeMap<>();
      for (ConsumerRecord<byte[], byte[]> record : dlq) {
        assertThat(header(record, "__streams.errors.message")).as("reason of a DLQ record from %s",
            header(record, "__streams.errors.topic")).isNotBlank();
        assertThat(header(record, "__streams.errors.topic")).isIn(inputTopics);
        String exception = header(record, "__streams.errors.exception");
        exceptions.merge(exception.substring(exception.lastIndexOf('.') + 1), 1L, Long::sum);
      }
      System.out.printf("InputTopicsFuzzTest: seed %d, %d bad records %s, %d good samples decided; DLQ %d records by exception %s%n",
          seed, badCount, byKind, goodCount, dlq.size(), exceptions);
      // Each bad record, by its bytes: none lost, none doubled.
      Map<String, Long> sent = bad.stream().collect(Collectors.groupingBy(b -> fingerprint(b.key(), b.value()), Collectors.counting()));
      Map<String, Long> dead = dlq.stream().collect(Collectors.groupingBy(r -> fingerprint(r.key(), r.value()), Collectors.counting()));
      List<String> unexpected = dlq.stream().filter(r -> dead.get(fingerprint(r.key(), r.value()))
              > sent.getOrDefault(fingerprint(r.key(), r.value()), 0L))
          .map(r -> header(r, "__streams.errors.topic") + " " + header(r, "__streams.errors.exception") + ": "
              + header(r, "__streams.errors.message") + " key=" + (r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8)))
          .toList();
      List<String> missing = bad.stream().filter(b -> dead.getOrDefault(fingerprint(b.key(), b.value()), 0L)
          < sent.get(fingerprint(b.key(), b.value()))).map(b -> b.kind() + " on " + b.topic()).toList();
      assertThat(unexpected).as("dead-lettered more often than sent").isEmpty();
      assertThat(missing).as("bad records not dead-lettered").isEmpty();
      List<String> unclear = dlq.stream().filter(r -> header(r, "__streams.errors.exception").endsWith("NullPointerException"))
          .map(r -> header(r, "__streams.errors.topic") + ": " + header(r, "__streams.errors.message")).distinct().toList();
      assertThat(unclear).as("reasons that say what is wrong, not a NullPointerException").isEmpty();
    }
  }

  private static String fingerprint(byte[] key, byte[] value) {
    return (key == null ? "null" : Arrays.toString(key)) + "|" + (value == null ? "null" : Arrays.toString(value));
  }

  private static String shortName(StreamsAppFixture app, String topic) {
    return topic.substring(app.applicationId.length() - "app".length());
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    Header header = record.headers().lastHeader(name);
    return header == null ? "" : new String(header.value(), StandardCharsets.UTF_8);
  }

  private static KafkaProducer<byte[], byte[]> rawProducer(KafkaEnv kafka) {
    Map<String, Object> props = new HashMap<>(kafka.clientConfig());
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000);
    // One in flight: records reach each partition in the order sent, so "after a bad one" holds per partition.
    props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
    return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
  }

  private static int partitionOf(String node) {
    return NodePartitioning.partitionOfNode(node, StreamsAppFixture.PARTITIONS);
  }

  private static CgroupSample sample(String node, String task, long tsMs) {
    return CgroupSample.newBuilder().setNode(node).setTask(task).setTsMs(tsMs).setCpuUsageUsec(0)
        .setMemoryBytes(1L << 20).setState(SampleState.RUNNING).setSeq(1).build();
  }

  /** A valid record of each external input topic, keyed as its producer would. */
  private static Map.Entry<String, SpecificRecord> valid(StreamsAppFixture app, String topic, String node, String task, long now) {
    if (topic.equals(app.topics.samples().name())) {
      return Map.entry(node + "/" + task, sample(node, task, now));
    }
    if (topic.equals(app.topics.nodes().name())) {
      return Map.entry(node, NodeStatus.newBuilder().setNode(node).setTsMs(now).setMemoryTotalBytes(8L << 30).setCpus(2)
          .setThreadsPerCore(1).setCgroupVersion(1).build());
    }
    if (topic.equals(app.topics.taskSpecs().name())) {
      return Map.entry(node + "/" + task, TaskSpec.newBuilder().setNode(node).setTask(task).setNcpus(1).build());
    }
    if (topic.equals(app.topics.poolConfigs().name())) {
      return Map.entry(task, PoolConfig.newBuilder().setPool(task).build());
    }
    if (topic.equals(app.topics.enforcementResults().name())) {
      // The only results the app checks: a reflex freeze (others are dropped unread).
      return Map.entry(node + "/" + task, EnforcementResult.newBuilder().setNode(node).setTask(task).setTsMs(now)
          .setKind(EnforcementKind.FREEZE).setStatus(EnforcementStatus.REFLEX_FROZEN).setReadFrozen(true)
          .setReadMemoryBytes(64L << 20).setDecisionTopic(app.topics.gateTables().name()).setDecisionPartition(0)
          .setDecisionOffset(0).build());
    }
    return Map.entry(task, ClusterConfig.newBuilder().setCluster(task).build());
  }

  @SuppressWarnings("unchecked")
  private static byte[] serialize(StreamsAppFixture app, String topic, SpecificRecord value) {
    Topic<String, ?> target = app.topics.all().stream().filter(t -> t.name().equals(topic)).findFirst()
        .map(t -> (Topic<String, ?>) t).orElseThrow();
    return ((Serializer<SpecificRecord>) target.valueSerde().serializer()).serialize(topic, value);
  }

  /** One bad record for a topic drawn at random. */
  private static Bad badRecord(StreamsAppFixture app, Random random, long now) {
    List<String> external = List.of(app.topics.samples().name(), app.topics.samples().name(), app.topics.nodes().name(),
        app.topics.taskSpecs().name(), app.topics.poolConfigs().name(), app.topics.clusterConfig().name(),
        app.topics.enforcementResults().name());
    List<String> internal = List.of(app.topics.configBroadcast().name(), app.topics.memoryUsage().name(),
        app.topics.poolPartials().name());
    boolean outsider = random.nextInt(6) == 0;
    String topic = outsider ? internal.get(random.nextInt(internal.size())) : external.get(random.nextInt(external.size()));
    String node = NODES[random.nextInt(NODES.length)];
    String task = "bad-" + random.nextInt(1_000_000);
    boolean singlePartition = topic.equals(app.topics.poolConfigs().name()) || topic.equals(app.topics.clusterConfig().name())
        || topic.equals(app.topics.poolPartials().name());
    Integer partition = singlePartition ? 0 : partitionOf(node);
    byte[] key = (outsider || singlePartition ? task : node + "/" + task).getBytes(StandardCharsets.UTF_8);
    if (topic.equals(app.topics.nodes().name())) {
      key = node.getBytes(StandardCharsets.UTF_8);
    }
    if (outsider) {
      return wireGarbage(app, random, topic, partition, key, () -> serialize(app, app.topics.samples().name(), sample(node, task, now)));
    }
    Map.Entry<String, SpecificRecord> valid = valid(app, topic, node, task, now);
    key = valid.getKey().getBytes(StandardCharsets.UTF_8);
    byte[] validBytes = serialize(app, topic, valid.getValue());
    int kind = random.nextInt(10);
    if (kind < 6) {
      String other = topic.equals(app.topics.samples().name()) ? app.topics.taskSpecs().name() : app.topics.samples().name();
      Map.Entry<String, SpecificRecord> otherValue = valid(app, other, node, task, now);
      return wireGarbage(app, random, topic, partition, key, () -> serialize(app, other, otherValue.getValue()), validBytes);
    }
    return contentProblem(app, random, topic, partition, node, task, now);
  }

  private static Bad wireGarbage(StreamsAppFixture app, Random random, String topic, Integer partition, byte[] key,
      Supplier<byte[]> otherSchema) {
    return wireGarbage(app, random, topic, partition, key, otherSchema, null);
  }

  /** Bytes that are no valid record of the topic's schema, whatever they decode to. */
  private static Bad wireGarbage(StreamsAppFixture app, Random random, String topic, Integer partition, byte[] key,
      Supplier<byte[]> otherSchema, byte[] validBytes) {
    int kinds = validBytes == null ? 4 : 7;
    switch (random.nextInt(kinds)) {
      case 0 -> {
        byte[] bytes = new byte[random.nextInt(64) + 1];
        random.nextBytes(bytes);
        bytes[0] = (byte) (1 + random.nextInt(255)); // never the magic byte: random bytes after it could be a record
        return new Bad(topic, partition, key, bytes, "random bytes");
      }
      case 1 -> {
        return new Bad(topic, partition, key, new byte[0], "empty value");
      }
      case 2 -> {
        byte[] bytes = otherSchema.get();
        ByteBuffer.wrap(bytes, 1, 4).putInt(0x7f000000 + random.nextInt(1 << 20));
        return new Bad(topic, partition, key, bytes, "unknown schema id");
      }
      case 3 -> {
        return new Bad(topic, partition, key, otherSchema.get(), "another topic's schema");
      }
      case 4 -> {
        byte[] bytes = Arrays.copyOf(validBytes, random.nextInt(validBytes.length - 1) + 1);
        return new Bad(topic, partition, key, bytes, "truncated");
      }
      case 5 -> {
        byte[] extra = new byte[random.nextInt(8) + 1];
        random.nextBytes(extra);
        byte[] bytes = Arrays.copyOf(validBytes, validBytes.length + extra.length);
        System.arraycopy(extra, 0, bytes, validBytes.length, extra.length);
        return new Bad(topic, partition, key, bytes, "bytes appended");
      }
      default -> {
        byte[] bytes = validBytes.clone();
        bytes[0] = (byte) (1 + random.nextInt(255));
        return new Bad(topic, partition, key, bytes, "bad magic byte");
      }
    }
  }

  /** A record that decodes but must not change state: no key, no value, a key the value disagrees with, hostile ids. */
  private static Bad contentProblem(StreamsAppFixture app, Random random, String topic, Integer partition, String node,
      String task, long now) {
    boolean isSamples = topic.equals(app.topics.samples().name());
    boolean isNodes = topic.equals(app.topics.nodes().name());
    boolean perTask = isSamples || topic.equals(app.topics.taskSpecs().name())
        || topic.equals(app.topics.enforcementResults().name());
    String[] hostile = {"..", ".", ".hidden", "a b", "x".repeat(129), "t\u00e9", "", "a\u0000b"};
    String badId = hostile[random.nextInt(hostile.length)];
    switch (random.nextInt(isSamples ? 5 : 3)) {
      case 0 -> { // the value names another id than the key
        Map.Entry<String, SpecificRecord> valid = valid(app, topic, node, task + "-other", now);
        String key = perTask ? node + "/" + task : isNodes ? NODES[(Arrays.asList(NODES).indexOf(node) + 1) % NODES.length] : task;
        return new Bad(topic, perTask || isNodes ? partitionOf(key.split("/")[0]) : partition,
            key.getBytes(StandardCharsets.UTF_8), serialize(app, topic, valid.getValue()), "key and value disagree");
      }
      case 1 -> { // a hostile id in both key and value
        Map.Entry<String, SpecificRecord> valid = valid(app, topic, isNodes ? badId : node, badId, now);
        return new Bad(topic, partition, valid.getKey().getBytes(StandardCharsets.UTF_8), serialize(app, topic, valid.getValue()),
            "hostile id");
      }
      case 2 -> { // a key that is not UTF-8, the value valid
        Map.Entry<String, SpecificRecord> valid = valid(app, topic, node, task, now);
        byte[] utf8 = valid.getKey().getBytes(StandardCharsets.UTF_8);
        byte[] key = Arrays.copyOf(utf8, utf8.length + 2);
        key[utf8.length] = (byte) 0xff;
        key[utf8.length + 1] = (byte) 0xfe;
        return new Bad(topic, partition, key, serialize(app, topic, valid.getValue()), "key not UTF-8");
      }
      case 3 -> {
        return new Bad(topic, partition, null, serialize(app, topic, sample(node, task, now)), "no key");
      }
      default -> {
        return new Bad(topic, partition, (node + "/" + task).getBytes(StandardCharsets.UTF_8), null, "no value (a sample tombstone)");
      }
    }
  }
}
