package io.quotaflow.streams.topology;

import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.EnforcementHeaders;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.GateTable;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.streams.simulate.OfflineDriver;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.test.TestRecord;

/** The real topology offline ({@link OfflineDriver}), with typed topics to drive it and sample builders. */
final class TopologyHarness implements AutoCloseable {

  static final long T0 = 1_700_000_000_000L;

  private final OfflineDriver offline;
  final Topics topics;
  final TestInputTopic<String, CgroupSample> samples;
  final TestInputTopic<String, TaskSpec> specs;
  final TestInputTopic<String, NodeStatus> nodes;
  final TestInputTopic<String, ClusterConfig> cluster;
  final TestInputTopic<String, PoolConfig> pools;
  final TestOutputTopic<String, CpuDecision> decisions;
  final TestOutputTopic<String, FreezeDecision> freezes;
  final TestInputTopic<String, EnforcementResult> results;
  final TestOutputTopic<String, GateTable> tables;
  final TestOutputTopic<byte[], byte[]> dlq;

  TopologyHarness() {
    this(TopologyProbe.NONE);
  }

  /** The topology reporting to {@code probe} (a {@link MeteredProbe}, to check the app's meters). */
  TopologyHarness(TopologyProbe probe) {
    offline = new OfflineDriver(Instant.ofEpochMilli(T0), probe);
    topics = offline.topics();
    samples = offline.input(topics.samples());
    specs = offline.input(topics.taskSpecs());
    nodes = offline.input(topics.nodes());
    cluster = offline.input(topics.clusterConfig());
    pools = offline.input(topics.poolConfigs());
    decisions = offline.output(topics.cpuDecisions());
    freezes = offline.output(topics.freezeDecisions());
    results = offline.input(topics.enforcementResults());
    tables = offline.output(topics.gateTables());
    dlq = offline.output(topics.dlq());
  }

  static CgroupSample sample(String node, String task, long tsMs, long cpuUsageUsec) {
    return CgroupSample.newBuilder().setNode(node).setTask(task).setTsMs(tsMs).setCpuUsageUsec(cpuUsageUsec)
        .setMemoryBytes(100L << 20).setState(SampleState.RUNNING).setSeq(0).build();
  }

  static TaskSpec.Builder spec(String node, String task, double ncpus) {
    return TaskSpec.newBuilder().setNode(node).setTask(task).setNcpus(ncpus).setPool("batch");
  }

  /** A running task's sample whose anonymous memory is {@code anonBytes} (and total a little more, for page cache). */
  static CgroupSample memorySample(String node, String task, long tsMs, long anonBytes) {
    return CgroupSample.newBuilder().setNode(node).setTask(task).setTsMs(tsMs).setCpuUsageUsec(0)
        .setMemoryBytes(anonBytes + (8L << 20)).setMemoryAnonBytes(anonBytes).setState(SampleState.RUNNING).setSeq(0)
        .build();
  }

  /** What the enforcer of {@code node} publishes when its reflex freezes {@code task}, reading {@code readBytes}. */
  static EnforcementResult reflexFreeze(String node, String task, long tsMs, Long readBytes) {
    return result(node, task, tsMs, EnforcementKind.FREEZE, EnforcementStatus.REFLEX_FROZEN).setReadFrozen(true)
        .setReadMemoryBytes(readBytes).build();
  }

  static EnforcementResult.Builder result(String node, String task, long tsMs, EnforcementKind kind,
      EnforcementStatus status) {
    return EnforcementResult.newBuilder().setNode(node).setTask(task).setTsMs(tsMs).setKind(kind).setStatus(status)
        .setDecisionTopic("quotaflow.gate-tables").setDecisionPartition(0).setDecisionOffset(7);
  }

  /** A result as the enforcer publishes it: keyed node/task, its status in a header, at its own ts_ms. */
  void pipeResult(EnforcementResult result) {
    RecordHeaders headers = new RecordHeaders();
    EnforcementHeaders.putStatus(headers, result.getStatus());
    results.pipeInput(new TestRecord<>(result.getNode() + "/" + result.getTask(), result, headers,
        Instant.ofEpochMilli(result.getTsMs())));
  }

  /** Raw bytes onto {@code topic}, for records no serializer would write. */
  TestInputTopic<String, byte[]> rawInput(String topic) {
    return offline.driver().createInputTopic(topic, new StringSerializer(), new ByteArraySerializer());
  }

  /** What was written to {@code topic} (a changelog, say), as bytes. */
  TestOutputTopic<String, byte[]> rawOutput(String topic) {
    return offline.driver().createOutputTopic(topic, new StringDeserializer(), new ByteArrayDeserializer());
  }

  List<TestRecord<String, GateTable>> drainTables() {
    return new ArrayList<>(tables.readRecordsToList());
  }

  <K, V> TestOutputTopic<K, V> offlineOutput(io.quotaflow.schemas.Topic<K, V> topic) {
    return offline.output(topic);
  }

  void pipeSample(CgroupSample sample) {
    samples.pipeInput(sample.getNode() + "/" + sample.getTask(), sample, sample.getTsMs());
  }

  void pipeSpec(TaskSpec spec, long tsMs) {
    specs.pipeInput(spec.getNode() + "/" + spec.getTask(), spec, tsMs);
  }

  /** Samples every {@code periodMs} from {@code fromMs}, using {@code cores} of CPU: returns the next ts and usage. */
  long[] run(String node, String task, long fromMs, long cpuUsageUsec, double cores, long periodMs, int count) {
    long ts = fromMs;
    long usage = cpuUsageUsec;
    for (int i = 0; i < count; i++) {
      pipeSample(sample(node, task, ts, usage));
      ts += periodMs;
      usage += Math.round(cores * periodMs * 1000);
    }
    return new long[] {ts, usage};
  }

  /** A key-value store of the topology as the processors left it. */
  <V> org.apache.kafka.streams.state.KeyValueStore<String, V> store(String name) {
    return offline.driver().getKeyValueStore(name);
  }

  /** Every entry of store {@code name} into the same store of {@code to}, each value through {@code asStored} (key, value). */
  <V> void copyStore(String name, TopologyHarness to, BiFunction<String, V, V> asStored) {
    org.apache.kafka.streams.state.KeyValueStore<String, V> target = to.store(name);
    entries(this.<V>store(name)).forEach(kv -> target.put(kv.key, asStored.apply(kv.key, kv.value)));
  }

  /** A store's entries in key order. */
  static <V> List<KeyValue<String, V>> entries(org.apache.kafka.streams.state.KeyValueStore<String, V> store) {
    List<KeyValue<String, V>> out = new ArrayList<>();
    try (KeyValueIterator<String, V> all = store.all()) {
      all.forEachRemaining(out::add);
    }
    return out;
  }

  List<TestRecord<String, CpuDecision>> drain() {
    return new ArrayList<>(decisions.readRecordsToList());
  }

  List<TestRecord<String, FreezeDecision>> drainFreezes() {
    return new ArrayList<>(freezes.readRecordsToList());
  }

  @Override
  public void close() {
    offline.close();
  }
}
