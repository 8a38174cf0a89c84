package io.quotaflow.streams.simulate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.json.JsonRecords;
import io.quotaflow.schemas.registry.InMemorySchemaRegistryClient;
import io.quotaflow.streams.topology.QuotaflowTopology;
import io.quotaflow.streams.topology.StreamsConfigFactory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/**
 * {@code quotaflow simulate}: the real topology, offline, on one partition. Reads JSON lines of
 * records (DESIGN "Commands"), pipes each into the driver in order and writes every record the
 * topology produces as a JSON line. For SREs trying other parameters on a recorded incident.
 */
public final class Simulator implements AutoCloseable {

  /** Where a record's timestamp comes from when its line has no {@code ts_ms}: the value's, else the last one seen. */
  private long lastTsMs;

  private final Topics topics;
  private final Path stateDir;
  private final TopologyTestDriver driver;
  private final TestInputTopic<String, CgroupSample> samples;
  private final TestInputTopic<String, TaskSpec> specs;
  private final TestInputTopic<String, NodeStatus> nodes;
  private final TestInputTopic<String, ClusterConfig> cluster;
  private final TestInputTopic<String, PoolConfig> pools;
  private final List<Output<?>> outputs = new ArrayList<>();

  /** One output topic and its short name in the JSON lines. */
  private record Output<V>(String name, String topicName, TestOutputTopic<String, V> topic) {}

  /** A line that could not be used: reported, skipped, and the run goes on. */
  public record LineError(long line, String message) {}

  /** What a run did. */
  public record Summary(long linesRead, long recordsIn, long recordsOut, List<LineError> errors) {}

  public Simulator() {
    topics = Topics.create(new Topics.Settings(Topics.DEFAULT_PREFIX, 1, true), new InMemorySchemaRegistryClient());
    try {
      stateDir = Files.createTempDirectory("quotaflow-simulate");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // One record at a time, in file order: nothing to wait for on other partitions.
    Properties config = StreamsConfigFactory.create("simulate:0", topics.dlq().name(),
        Map.of(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, 0L, StreamsConfig.STATE_DIR_CONFIG, stateDir.toString(),
            StreamsConfig.APPLICATION_ID_CONFIG, "quotaflow-simulate"));
    driver = new TopologyTestDriver(QuotaflowTopology.build(topics), config, Instant.EPOCH);
    samples = input(topics.samples());
    specs = input(topics.taskSpecs());
    nodes = input(topics.nodes());
    cluster = input(topics.clusterConfig());
    pools = input(topics.poolConfigs());
    output(topics.cpuDecisions(), "cpu-decisions");
    output(topics.freezeDecisions(), "freeze-decisions");
    output(topics.poolState(), "pool-state");
  }

  private <V> TestInputTopic<String, V> input(Topic<String, V> topic) {
    return driver.createInputTopic(topic.name(), topic.keySerde().serializer(), topic.valueSerde().serializer());
  }

  private <V> void output(Topic<String, V> topic, String name) {
    outputs.add(new Output<>(name, topic.name(), driver.createOutputTopic(topic.name(), topic.keySerde().deserializer(),
        topic.valueSerde().deserializer())));
  }

  public Summary run(BufferedReader in, PrintWriter out) throws IOException {
    TestOutputTopic<byte[], byte[]> dlq = driver.createOutputTopic(topics.dlq().name(),
        topics.dlq().keySerde().deserializer(), topics.dlq().valueSerde().deserializer());
    List<LineError> errors = new ArrayList<>();
    long lines = 0;
    long recordsIn = 0;
    long recordsOut = 0;
    String line;
    while ((line = in.readLine()) != null) {
      lines++;
      if (line.isBlank()) {
        continue;
      }
      try {
        pipe(JsonRecords.MAPPER.readTree(line));
        recordsIn++;
      } catch (IOException | IllegalArgumentException e) {
        errors.add(new LineError(lines, e.getMessage()));
        continue;
      }
      recordsOut += drain(out);
      if (!driver.producedTopicNames().contains(topics.dlq().name())) {
        continue;
      }
      for (TestRecord<byte[], byte[]> rejected : dlq.readRecordsToList()) {
        Header message = rejected.headers().lastHeader("__streams.errors.message");
        errors.add(new LineError(lines, "rejected by the topology (dlq): "
            + (message == null ? "no reason given" : new String(message.value(), StandardCharsets.UTF_8))));
      }
    }
    out.flush();
    return new Summary(lines, recordsIn, recordsOut, errors);
  }

  private void pipe(JsonNode line) {
    if (line == null || !line.isObject()) {
      throw new IllegalArgumentException("expected a JSON object {\"type\", \"key\", \"value\"}");
    }
    String type = line.path("type").asText("");
    JsonNode keyNode = line.get("key");
    if (keyNode == null || !keyNode.isTextual()) {
      throw new IllegalArgumentException("\"key\" must be a string");
    }
    String key = keyNode.asText();
    JsonNode value = line.get("value");
    switch (type) {
      case "sample" -> {
        CgroupSample sample = read(value, CgroupSample.class, false);
        samples.pipeInput(key, sample, timestamp(line, sample.getTsMs()));
      }
      case "task" -> {
        TaskSpec spec = read(value, TaskSpec.class, true);
        specs.pipeInput(key, spec, timestamp(line, null));
      }
      case "node" -> {
        NodeStatus status = read(value, NodeStatus.class, true);
        nodes.pipeInput(key, status, timestamp(line, status == null ? null : status.getTsMs()));
      }
      case "cluster" -> cluster.pipeInput(key, read(value, ClusterConfig.class, true), timestamp(line, null));
      case "pool" -> pools.pipeInput(key, read(value, PoolConfig.class, true), timestamp(line, null));
      default -> throw new IllegalArgumentException("unknown type '" + type + "': expected cluster, pool, task, node or sample");
    }
  }

  private static <T extends SpecificRecord> T read(JsonNode value, Class<T> type, boolean tombstoneAllowed) {
    if (value == null || value.isNull()) {
      if (!tombstoneAllowed) {
        throw new IllegalArgumentException(type.getSimpleName() + " needs a value: samples are never tombstones");
      }
      return null;
    }
    return JsonRecords.fromJson(value, type);
  }

  /** The line's {@code ts_ms}, else the value's own time, else the last time seen: configs apply from their position. */
  private long timestamp(JsonNode line, Long valueTsMs) {
    long ts;
    if (line.hasNonNull("ts_ms")) {
      if (!line.get("ts_ms").isIntegralNumber()) {
        throw new IllegalArgumentException("\"ts_ms\" must be an integer (epoch ms)");
      }
      ts = line.get("ts_ms").asLong();
    } else {
      ts = valueTsMs != null ? valueTsMs : lastTsMs;
    }
    lastTsMs = Math.max(lastTsMs, ts);
    return ts;
  }

  private long drain(PrintWriter out) {
    long written = 0;
    java.util.Set<String> produced = driver.producedTopicNames();
    for (Output<?> output : outputs) {
      if (!produced.contains(output.topicName())) {
        continue; // the topology has not written there yet (and the driver would warn about it)
      }
      for (TestRecord<String, ?> record : output.topic().readRecordsToList()) {
        ObjectNode line = JsonRecords.MAPPER.createObjectNode();
        line.put("topic", output.name());
        line.put("key", record.key());
        line.put("ts_ms", record.timestamp());
        line.set("value", record.value() == null ? null : JsonRecords.toJson((GenericRecord) record.value()));
        out.println(line.toString());
        written++;
      }
    }
    return written;
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
