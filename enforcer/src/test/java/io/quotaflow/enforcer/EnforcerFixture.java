package io.quotaflow.enforcer;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.Cgroups;
import io.quotaflow.cgroups.KernelCpuLimits;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.schemas.NodePartitioner;
import io.quotaflow.schemas.NodePartitioning;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupCpuSettings;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.Enforcement;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.GateTable;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.TestTopics;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * One enforcer test's Kafka side: its own topics on the shared embedded broker, producers that
 * publish decisions and cluster configs as the streams app and {@code quotaflow cluster} would
 * (node-partitioned), enforcers started as separate components (their own catalogue and cgroups
 * handle), and reads of {@code enforcement-results}.
 */
final class EnforcerFixture implements AutoCloseable {

  static final String NODE = "node-a";
  static final int PARTITIONS = 3;
  static final Duration PATIENCE = Duration.ofSeconds(60);

  final KafkaEnv kafka;
  final Topics topics;
  private final KafkaProducer<String, CpuDecision> cpu;
  private final KafkaProducer<String, FreezeDecision> freeze;
  private final KafkaProducer<String, ClusterConfig> cluster;
  private final KafkaProducer<String, GateTable> gate;
  private final List<Enforcer> enforcers = new ArrayList<>();

  EnforcerFixture(KafkaEnv kafka) {
    this(kafka, true);
  }

  /** @param createTopics false: the test creates them later ({@link #createTopics()}) */
  EnforcerFixture(KafkaEnv kafka, boolean createTopics) {
    this.kafka = kafka;
    this.topics = Topics.create(new Topics.Settings(TestTopics.uniquePrefix("enforcer"), PARTITIONS, true),
        kafka.registryClient());
    if (createTopics) {
      createTopics();
    }
    this.cpu = producer(topics.cpuDecisions());
    this.freeze = producer(topics.freezeDecisions());
    this.cluster = producer(topics.clusterConfig());
    this.gate = producer(topics.gateTables());
  }

  private <V> KafkaProducer<String, V> producer(Topic<String, V> topic) {
    Map<String, Object> config = new HashMap<>(kafka.clientConfig());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, NodePartitioner.class.getName());
    return new KafkaProducer<>(config, topic.keySerde().serializer(), topic.valueSerde().serializer());
  }

  void createTopics() {
    TestTopics.createAll(kafka, topics);
  }

  /** A node other than {@link #NODE} whose records land in the same partition: only the key tells them apart. */
  static String otherNodeInTheSamePartition() {
    int ours = NodePartitioning.partitionOfNode(NODE, PARTITIONS);
    for (int i = 0; ; i++) {
      String candidate = "node-b" + i;
      if (NodePartitioning.partitionOfNode(candidate, PARTITIONS) == ours) {
        return candidate;
      }
    }
  }

  Enforcer start(CgroupConfig cgroups, Path stateFile) throws IOException {
    return start(cgroups, stateFile, false, Duration.ofSeconds(5), null);
  }

  /** Starts an enforcer for {@link #NODE} and waits until it caught up and is ready. */
  Enforcer start(CgroupConfig cgroups, Path stateFile, boolean dryRun, Duration leaseThawInterval,
      PrometheusMeterRegistry meters) throws IOException {
    Enforcer enforcer = startWithoutWaiting(cgroups, stateFile, dryRun, leaseThawInterval, meters);
    awaitReady(enforcer);
    return enforcer;
  }

  Enforcer startWithoutWaiting(CgroupConfig cgroups, Path stateFile, boolean dryRun, Duration leaseThawInterval,
      PrometheusMeterRegistry meters) throws IOException {
    return startWithoutWaiting(cgroups, stateFile, dryRun, leaseThawInterval, meters,
        Enforcer.Settings.DEFAULT_REFLEX_LEASE);
  }

  /** As {@link #start(CgroupConfig, Path, boolean, Duration, PrometheusMeterRegistry)}, with the reflex at 10 Hz under this lease. */
  Enforcer startWithReflexLease(CgroupConfig cgroups, Path stateFile, Duration leaseThawInterval,
      PrometheusMeterRegistry meters, Duration reflexLease) throws IOException {
    Enforcer enforcer = startWithoutWaiting(cgroups, stateFile, false, leaseThawInterval, meters, reflexLease);
    awaitReady(enforcer);
    return enforcer;
  }

  private Enforcer startWithoutWaiting(CgroupConfig cgroups, Path stateFile, boolean dryRun, Duration leaseThawInterval,
      PrometheusMeterRegistry meters, Duration reflexLease) throws IOException {
    Topics own = Topics.create(topics.settings(), kafka.registryClient());
    Enforcer.Settings settings = new Enforcer.Settings(NODE, dryRun, stateFile, leaseThawInterval,
        Duration.ofSeconds(10), kafka.clientConfig()).withReflex(Enforcer.Settings.DEFAULT_REFLEX_HZ, reflexLease);
    Enforcer enforcer = Enforcer.start(settings, Cgroups.open(cgroups), own,
        meters != null ? meters : OpsServer.newRegistry("enforcer"));
    enforcers.add(enforcer);
    return enforcer;
  }

  static void awaitReady(Enforcer enforcer) {
    KafkaWait.until(PATIENCE, "the enforcer to catch up", () -> enforcer.health().ready());
  }

  /** Bytes that are not a Confluent-framed Avro record, as a broken producer would write them. */
  RecordMetadata garbage(String task) {
    return garbage(topics.cpuDecisions().name(), NODE + "/" + task);
  }

  /** As {@link #garbage(String)}, on any topic under any key. */
  RecordMetadata garbage(String topic, String key) {
    Map<String, Object> config = new HashMap<>(kafka.clientConfig());
    config.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, NodePartitioner.class.getName());
    try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(config, new StringSerializer(),
        new ByteArraySerializer())) {
      return send(producer, new ProducerRecord<>(topic, key, new byte[] {7, 7, 7}));
    }
  }

  static CpuDecision cpuDecision(String node, String task, boolean apply, long shares, long quotaUs) {
    return CpuDecision.newBuilder().setNode(node).setTask(task).setTsMs(System.currentTimeMillis())
        .setHardLimitCpu(1).setSoftLimitCpu(shares / 1000.0).setEffectiveLimitCpu(shares / 1000.0)
        .setReason("INITIAL").setApply(apply)
        .setCgroup(new CgroupCpuSettings(shares, KernelCpuLimits.weightForShares(shares), quotaUs, 100_000L))
        .build();
  }

  RecordMetadata cpu(String task, boolean apply, long shares, long quotaUs) {
    return cpu(NODE + "/" + task, cpuDecision(NODE, task, apply, shares, quotaUs));
  }

  RecordMetadata cpu(String key, CpuDecision value) {
    return send(cpu, new ProducerRecord<>(topics.cpuDecisions().name(), key, value));
  }

  RecordMetadata freeze(String task, FreezeAction action, Long leaseMs) {
    return freeze(task, action, leaseMs, System.currentTimeMillis());
  }

  /** A freeze decision whose record carries {@code timestampMs} (the streams app's stream time). */
  RecordMetadata freeze(String task, FreezeAction action, Long leaseMs, long timestampMs) {
    FreezeDecision value = FreezeDecision.newBuilder().setNode(NODE).setTask(task).setTsMs(timestampMs)
        .setAction(action).setReason(action == FreezeAction.FREEZE ? "PEAK_SLOT_BUSY" : "SLOT_FREED")
        .setLeaseMs(leaseMs).build();
    return send(freeze, new ProducerRecord<>(topics.freezeDecisions().name(), null, timestampMs, NODE + "/" + task, value));
  }

  /** A tombstone: the task's freeze decision is withdrawn. */
  RecordMetadata withdrawFreeze(String task) {
    return send(freeze, new ProducerRecord<>(topics.freezeDecisions().name(), NODE + "/" + task, null));
  }

  /** The node's gate table, as the streams app publishes it: keyed node, node-partitioned; null: a tombstone. */
  RecordMetadata gateTable(GateTable table) {
    return send(gate, new ProducerRecord<>(topics.gateTables().name(), NODE, table));
  }

  RecordMetadata enforcement(Enforcement enforcement) {
    return clusterConfig(ClusterConfig.newBuilder().setCluster("main").setEnforcement(enforcement).build());
  }

  RecordMetadata clusterConfig(ClusterConfig value) {
    return send(cluster, new ProducerRecord<>(topics.clusterConfig().name(), value.getCluster(), value));
  }

  private static <V> RecordMetadata send(KafkaProducer<String, V> producer, ProducerRecord<String, V> record) {
    try {
      return producer.send(record).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot publish to " + record.topic() + ": " + e.getCause(), e.getCause());
    }
  }

  /** Reads enforcement-results from the beginning until {@code done} holds for what was read. */
  List<EnforcementResult> resultsUntil(String expectation, Predicate<List<EnforcementResult>> done) {
    Topic<String, EnforcementResult> results = topics.enforcementResults();
    List<ConsumerRecord<String, EnforcementResult>> records = KafkaWait.recordsUntil(kafka, results.name(),
        results.keySerde().deserializer(), results.valueSerde().deserializer(),
        seen -> done.test(seen.stream().map(ConsumerRecord::value).toList()), expectation, PATIENCE);
    return records.stream().map(ConsumerRecord::value).toList();
  }

  /** The first result that matches, once it was published. */
  EnforcementResult awaitResult(String expectation, Predicate<EnforcementResult> match) {
    return resultsUntil(expectation, seen -> seen.stream().anyMatch(match)).stream().filter(match).findFirst().orElseThrow();
  }

  /** The result answering the decision published at {@code where}. */
  EnforcementResult awaitAnswer(RecordMetadata where) {
    return awaitResult("a result for " + where, answers(where));
  }

  static Predicate<EnforcementResult> answers(RecordMetadata where) {
    return r -> r.getDecisionTopic().equals(where.topic()) && r.getDecisionPartition() == where.partition()
        && r.getDecisionOffset() == where.offset();
  }

  static Predicate<EnforcementResult> about(String task) {
    return r -> r.getTask().equals(task);
  }

  @Override
  public void close() {
    enforcers.forEach(Enforcer::close);
    cpu.close();
    freeze.close();
    cluster.close();
    gate.close();
  }
}
