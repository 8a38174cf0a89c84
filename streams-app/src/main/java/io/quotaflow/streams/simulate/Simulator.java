package io.quotaflow.streams.simulate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.json.JsonRecords;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
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
  /** Whether a time was seen yet; before that, an untimed line takes the first time further down the input. */
  private boolean timeSeen;
  /** The input being run, and lines read ahead of the one being piped while looking for the first time. */
  private BufferedReader in;
  private final Deque<String> ahead = new ArrayDeque<>();

  private final OfflineDriver offline;
  private final Topics topics;
  private final TopologyTestDriver driver;
  private final TestInputTopic<String, CgroupSample> samples;
  private final TestInputTopic<String, TaskSpec> specs;
  private final TestInputTopic<String, NodeStatus> nodes;
  private final TestInputTopic<String, ClusterConfig> cluster;
  private final TestInputTopic<String, PoolConfig> pools;
  private final TestInputTopic<String, EnforcementResult> results;
  private final List<Output<?>> outputs = new ArrayList<>();
  /** Whether the gate tables are written out with the decisions ({@code --gate-tables}). */
  private final boolean gateTables;

  /** One output topic and its short name in the JSON lines. */
  private record Output<V>(String name, String topicName, TestOutputTopic<String, V> topic) {}

  /** A line that could not be used: reported, skipped, and the run goes on. */
  public record LineError(long line, String message) {}

  /** What a run did. */
  public record Summary(long linesRead, long recordsIn, long recordsOut, List<LineError> errors) {}

  public Simulator() {
    this(false);
  }

  /** @param gateTables whether the gate tables the app publishes for the reflex are written out too */
  public Simulator(boolean gateTables) {
    this.gateTables = gateTables;
    offline = new OfflineDriver(Instant.EPOCH);
    topics = offline.topics();
    driver = offline.driver();
    samples = input(topics.samples());
    specs = input(topics.taskSpecs());
    nodes = input(topics.nodes());
    cluster = input(topics.clusterConfig());
    pools = input(topics.poolConfigs());
    results = input(topics.enforcementResults());
    output(topics.cpuDecisions(), "cpu-decisions");
    output(topics.freezeDecisions(), "freeze-decisions");
    output(topics.poolState(), "pool-state");
    if (gateTables) {
      output(topics.gateTables(), "gate-tables");
    }
  }

  private <V> TestInputTopic<String, V> input(Topic<String, V> topic) {
    return offline.input(topic);
  }

  private <V> void output(Topic<String, V> topic, String name) {
    outputs.add(new Output<>(name, topic.name(), offline.output(topic)));
  }

  public Summary run(BufferedReader in, PrintWriter out) throws IOException {
    TestOutputTopic<byte[], byte[]> dlq = offline.output(topics.dlq());
    // Unless asked for, the gate tables are not written out: read undecoded so the driver does not keep them.
    TestOutputTopic<String, byte[]> tables = gateTables ? null : driver.createOutputTopic(topics.gateTables().name(),
        new StringDeserializer(), new ByteArrayDeserializer());
    List<LineError> errors = new ArrayList<>();
    long lines = 0;
    long recordsIn = 0;
    long recordsOut = 0;
    this.in = in;
    ahead.clear();
    String line;
    while ((line = nextLine()) != null) {
      lines++;
      if (line.isBlank()) {
        continue;
      }
      try {
        pipe(InputLine.parse(line));
        recordsIn++;
      } catch (IllegalArgumentException e) {
        errors.add(new LineError(lines, e.getMessage()));
        continue;
      }
      recordsOut += drain(out);
      if (tables != null && driver.producedTopicNames().contains(topics.gateTables().name())) {
        tables.readRecordsToList();
      }
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

  private void pipe(InputLine line) {
    String key = line.key();
    JsonNode value = withKeyFields(line.type(), key, line.value());
    switch (line.type()) {
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
      case "result" -> {
        // An enforcer's result: the topology reads only its reflex freezes (docs/memory-gating.md, The reflex).
        EnforcementResult result = read(value, EnforcementResult.class, false);
        results.pipeInput(key, result, timestamp(line, result.getTsMs()));
      }
      default -> throw new IllegalStateException("InputLine lets through only " + InputLine.TYPES + ", not " + line.type());
    }
  }

  /**
   * The value with its own key fields ({@code cluster}, {@code pool}, {@code node}, {@code task}) taken
   * from the record's key where it leaves them out, as a producer keying by id would fill them in; a
   * value that gives them keeps them, so a mismatch still reaches the topology's key check.
   */
  static JsonNode withKeyFields(String type, String key, JsonNode value) {
    if (!(value instanceof ObjectNode object)) {
      return value;
    }
    ObjectNode filled = object.deepCopy();
    switch (type) {
      case "cluster" -> filled.putIfAbsent("cluster", JsonRecords.MAPPER.getNodeFactory().textNode(key));
      case "pool" -> filled.putIfAbsent("pool", JsonRecords.MAPPER.getNodeFactory().textNode(key));
      case "node" -> filled.putIfAbsent("node", JsonRecords.MAPPER.getNodeFactory().textNode(key));
      case "task", "sample", "result" -> {
        try {
          TaskKey task = TaskKey.parse(key);
          filled.putIfAbsent("node", JsonRecords.MAPPER.getNodeFactory().textNode(task.node()));
          filled.putIfAbsent("task", JsonRecords.MAPPER.getNodeFactory().textNode(task.task()));
        } catch (IllegalArgumentException badKey) {
          // left as given: the topology refuses the key with its own reason
        }
      }
      default -> {
        // an unknown type is reported by the caller
      }
    }
    return filled;
  }

  private static <T extends SpecificRecord> T read(JsonNode value, Class<T> type, boolean tombstoneAllowed) {
    if (value == null || value.isNull()) {
      if (!tombstoneAllowed) {
        throw new IllegalArgumentException("\"value\" is missing: samples and results are never tombstones");
      }
      return null;
    }
    return JsonRecords.fromJson(value, type);
  }

  /**
   * The line's {@code ts_ms}, else the value's own time, else the last time seen: configs apply from
   * their position. Lines before the first time in the input (configs and specs written ahead of the
   * samples) take that first time, not epoch 0: a spec at 0 would open a pool period decades before
   * the samples, and the pools would "catch up" over that gap and start with full volumes.
   */
  private long timestamp(InputLine line, Long valueTsMs) {
    long ts;
    if (line.tsMs() != null) {
      ts = line.tsMs();
    } else if (valueTsMs != null) {
      ts = valueTsMs;
    } else {
      ts = timeSeen ? lastTsMs : firstTimeAhead();
    }
    lastTsMs = timeSeen ? Math.max(lastTsMs, ts) : ts;
    timeSeen = true;
    return ts;
  }

  private String nextLine() throws IOException {
    return ahead.isEmpty() ? in.readLine() : ahead.poll();
  }

  /**
   * The first time a later line gives (its {@code ts_ms}, else a sample's or node's own), reading ahead;
   * 0 if none does. A failing read is not a bad line: it ends the run ({@link UncheckedIOException}).
   */
  private long firstTimeAhead() {
    for (String line : ahead) {
      Long ts = timeOf(line);
      if (ts != null) {
        return ts;
      }
    }
    String line;
    while ((line = readAhead()) != null) {
      ahead.add(line);
      Long ts = timeOf(line);
      if (ts != null) {
        return ts;
      }
    }
    return 0;
  }

  private String readAhead() {
    try {
      return in.readLine();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The time a line would be piped at, if it says one itself; null for an untimed or unreadable line (reported when its turn comes). */
  private static Long timeOf(String text) {
    if (text.isBlank()) {
      return null;
    }
    try {
      return InputLine.parse(text).ownTimeMs();
    } catch (IllegalArgumentException unusable) {
      return null;
    }
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
    offline.close();
  }
}
