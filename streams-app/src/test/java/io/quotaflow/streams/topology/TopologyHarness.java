package io.quotaflow.streams.topology;

import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.registry.InMemorySchemaRegistryClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.stream.Stream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/** The real topology in a {@link TopologyTestDriver} with an in-memory registry, and typed topics to drive it. */
final class TopologyHarness implements AutoCloseable {

  static final long T0 = 1_700_000_000_000L;

  final Topics topics;
  private final Path stateDir;
  final TopologyTestDriver driver;
  final TestInputTopic<String, CgroupSample> samples;
  final TestInputTopic<String, TaskSpec> specs;
  final TestInputTopic<String, NodeStatus> nodes;
  final TestInputTopic<String, ClusterConfig> cluster;
  final TestInputTopic<String, PoolConfig> pools;
  final TestOutputTopic<String, CpuDecision> decisions;
  final TestOutputTopic<byte[], byte[]> dlq;

  TopologyHarness() {
    topics = Topics.create(new Topics.Settings(Topics.DEFAULT_PREFIX, 1, true), new InMemorySchemaRegistryClient());
    // The driver processes each record as it is piped, in pipe order: no need to idle for other partitions.
    try {
      stateDir = Files.createTempDirectory("quotaflow-ttd");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Properties config = StreamsConfigFactory.create("unused:9092", topics.dlq().name(),
        Map.of(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, 0L, StreamsConfig.STATE_DIR_CONFIG, stateDir.toString()));
    driver = new TopologyTestDriver(QuotaflowTopology.build(topics), config, Instant.ofEpochMilli(T0));
    samples = input(topics.samples());
    specs = input(topics.taskSpecs());
    nodes = input(topics.nodes());
    cluster = input(topics.clusterConfig());
    pools = input(topics.poolConfigs());
    decisions = driver.createOutputTopic(topics.cpuDecisions().name(), topics.cpuDecisions().keySerde().deserializer(),
        topics.cpuDecisions().valueSerde().deserializer());
    dlq = driver.createOutputTopic(topics.dlq().name(), topics.dlq().keySerde().deserializer(), topics.dlq().valueSerde().deserializer());
  }

  private <V> TestInputTopic<String, V> input(io.quotaflow.schemas.Topic<String, V> topic) {
    return driver.createInputTopic(topic.name(), topic.keySerde().serializer(), topic.valueSerde().serializer());
  }

  static CgroupSample sample(String node, String task, long tsMs, long cpuUsageUsec) {
    return CgroupSample.newBuilder().setNode(node).setTask(task).setTsMs(tsMs).setCpuUsageUsec(cpuUsageUsec)
        .setMemoryBytes(100L << 20).setState(SampleState.RUNNING).setSeq(0).build();
  }

  static TaskSpec.Builder spec(String node, String task, double ncpus) {
    return TaskSpec.newBuilder().setNode(node).setTask(task).setNcpus(ncpus).setPool("batch");
  }

  void pipeSample(CgroupSample sample) {
    samples.pipeInput(sample.getNode() + "/" + sample.getTask(), sample, sample.getTsMs());
  }

  void pipeSpec(TaskSpec spec, long tsMs) {
    specs.pipeInput(spec.getNode() + "/" + spec.getTask(), spec, tsMs);
  }

  /** Samples every {@code periodMs} from {@code fromMs}, using {@code cores} of CPU: returns the last ts and usage. */
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

  List<TestRecord<String, CpuDecision>> drain() {
    return new ArrayList<>(decisions.readRecordsToList());
  }

  @Override
  public void close() {
    driver.close();
    try (Stream<Path> files = Files.walk(stateDir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
