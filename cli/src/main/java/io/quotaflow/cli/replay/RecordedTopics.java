package io.quotaflow.cli.replay;

import io.quotaflow.cli.replay.InputRecord.Kind;
import io.quotaflow.process.ClusterConnection;
import io.quotaflow.process.ProcessException;
import io.quotaflow.schemas.EnforcementHeaders;
import io.quotaflow.schemas.NodePartitioning;
import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.PoolState;
import io.quotaflow.schemas.registry.RegistryUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads a replay's range off the live topics, by time ({@code offsetsForTimes}), read-committed and
 * without a consumer group: replay commits nothing, creates nothing, writes nothing. Inputs from
 * the warm-up start, with the configs (specs, nodes, cluster, pools) in force at it; the decisions
 * recorded in the compared range; and, from the topics' beginnings, which tasks, nodes and pools
 * already had decisions before the warm-up (they cannot be replayed exactly).
 */
public final class RecordedTopics {

  private static final Duration TIMEOUT = Duration.ofSeconds(15);
  /** A read that makes no progress this long has lost its broker. */
  private static final Duration STALL = Duration.ofSeconds(30);

  /** Records read so far of the total to read, for a progress bar. */
  public interface Progress {
    void update(long read, long total);
  }

  private final Map<String, Object> clientProperties;
  private final Topics topics;
  private final Progress progress;

  public RecordedTopics(Map<String, Object> clientProperties, Topics topics, Progress progress) {
    this.clientProperties = clientProperties;
    this.topics = topics;
    this.progress = progress;
  }

  /** One topic-partition to read from {@code start} to {@code end} (exclusive), and what to do with each record. */
  private record Slice(TopicPartition partition, long start, long end, Consumer<ConsumerRecord<String, byte[]>> handler) {}

  /**
   * @param nodes the nodes to read (empty: all); their partitions only, their records only
   * @throws ProcessException naming the topic when one is missing, has an unexpected partition count,
   *     or the broker cannot be read
   */
  public Recording read(long readFromMs, long fromMs, long toMs, Set<String> nodes) {
    Map<String, Object> props = new HashMap<>(clientProperties);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
    props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
    props.remove(ConsumerConfig.GROUP_ID_CONFIG); // assigned partitions, no group: nothing is committed anywhere
    try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
      return read(consumer, readFromMs, fromMs, toMs, nodes);
    } catch (RegistryUnavailableException e) {
      throw new ProcessException(e.getMessage(), e);
    } catch (KafkaException e) {
      throw new ProcessException("cannot read the recorded topics from " + bootstrap() + ": " + ProcessException.rootMessage(e), e);
    }
  }

  private Recording read(KafkaConsumer<String, byte[]> consumer, long readFromMs, long fromMs, long toMs, Set<String> nodes) {
    int partitions = partitionCount(consumer, topics.samples(), 0);
    for (Topic<?, ?> topic : List.of(topics.taskSpecs(), topics.nodes(), topics.cpuDecisions(), topics.freezeDecisions(),
        topics.enforcementResults())) {
      partitionCount(consumer, topic, partitions);
    }
    for (Topic<?, ?> topic : List.of(topics.clusterConfig(), topics.poolConfigs(), topics.poolState())) {
      partitionCount(consumer, topic, 1);
    }
    Set<Integer> nodePartitions = new TreeSet<>();
    for (int p = 0; p < partitions; p++) {
      if (nodes.isEmpty()) {
        nodePartitions.add(p);
      }
    }
    nodes.forEach(n -> nodePartitions.add(NodePartitioning.partitionOfNode(n, partitions)));

    Inputs inputs = new Inputs(readFromMs, toMs, partitions, nodes);
    Outputs outputs = new Outputs(readFromMs, toMs, nodes);
    List<Slice> slices = new ArrayList<>();
    for (int p : nodePartitions) {
      slices.add(new Slice(new TopicPartition(topics.samples().name(), p), -1, -1, inputs.handler(Kind.SAMPLE, topics.samples())));
      slices.add(new Slice(new TopicPartition(topics.taskSpecs().name(), p), 0, -1, inputs.handler(Kind.TASK, topics.taskSpecs())));
      slices.add(new Slice(new TopicPartition(topics.nodes().name(), p), 0, -1, inputs.handler(Kind.NODE, topics.nodes())));
      slices.add(new Slice(new TopicPartition(topics.enforcementResults().name(), p), -1, -1,
          inputs.handler(Kind.RESULT, topics.enforcementResults())));
      slices.add(new Slice(new TopicPartition(topics.cpuDecisions().name(), p), 0, -1, outputs.cpu()));
      slices.add(new Slice(new TopicPartition(topics.freezeDecisions().name(), p), 0, -1, outputs.freeze()));
    }
    slices.add(new Slice(new TopicPartition(topics.clusterConfig().name(), 0), 0, -1, inputs.handler(Kind.CLUSTER, topics.clusterConfig())));
    slices.add(new Slice(new TopicPartition(topics.poolConfigs().name(), 0), 0, -1, inputs.handler(Kind.POOL, topics.poolConfigs())));
    slices.add(new Slice(new TopicPartition(topics.poolState().name(), 0), 0, -1, outputs.pools()));
    consume(consumer, bounded(consumer, slices, readFromMs, toMs));
    return new Recording(readFromMs, fromMs, toMs, partitions, inputs.queues(), outputs.cpu, outputs.freeze, outputs.poolStates,
        outputs.tasksBefore, outputs.nodesBefore, outputs.poolsBefore, inputs.unreadable, inputs.misplaced);
  }

  /** Start (-1: the first record at or after the warm-up start; else the beginning) and end (the first record at or after --to). */
  private List<Slice> bounded(KafkaConsumer<String, byte[]> consumer, List<Slice> slices, long readFromMs, long toMs) {
    List<TopicPartition> all = slices.stream().map(Slice::partition).toList();
    // Assigned before asking for offsets: a read_committed consumer warns of every offset it learns for a partition it does not own.
    consumer.assign(all);
    Map<TopicPartition, Long> beginning = consumer.beginningOffsets(all, TIMEOUT);
    Map<TopicPartition, Long> end = consumer.endOffsets(all, TIMEOUT);
    Map<TopicPartition, Long> atTo = new HashMap<>();
    Map<TopicPartition, Long> atReadFrom = new HashMap<>();
    all.forEach(tp -> atTo.put(tp, toMs));
    consumer.offsetsForTimes(atTo, TIMEOUT).forEach((tp, found) -> atTo.put(tp, found == null ? end.get(tp) : Math.min(found.offset(), end.get(tp))));
    slices.stream().filter(s -> s.start() < 0).forEach(s -> atReadFrom.put(s.partition(), readFromMs));
    Map<TopicPartition, OffsetAndTimestamp> warmup = consumer.offsetsForTimes(atReadFrom, TIMEOUT);
    List<Slice> bounded = new ArrayList<>();
    for (Slice s : slices) {
      long start = s.start() >= 0 ? beginning.get(s.partition())
          : warmup.get(s.partition()) == null ? end.get(s.partition()) : warmup.get(s.partition()).offset();
      bounded.add(new Slice(s.partition(), start, Math.max(start, atTo.get(s.partition())), s.handler()));
    }
    return bounded;
  }

  private void consume(KafkaConsumer<String, byte[]> consumer, List<Slice> slices) {
    Map<TopicPartition, Slice> byPartition = new LinkedHashMap<>();
    long total = 0;
    for (Slice s : slices) {
      if (s.end() > s.start()) {
        byPartition.put(s.partition(), s);
        total += s.end() - s.start();
      }
    }
    consumer.pause(slices.stream().map(Slice::partition).filter(tp -> !byPartition.containsKey(tp)).toList());
    byPartition.values().forEach(s -> consumer.seek(s.partition(), s.start()));
    Set<TopicPartition> open = new HashSet<>(byPartition.keySet());
    long read = 0;
    long lastProgressNs = System.nanoTime();
    progress.update(0, total);
    while (!open.isEmpty()) {
      boolean moved = false;
      for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
        TopicPartition tp = new TopicPartition(record.topic(), record.partition());
        Slice slice = byPartition.get(tp);
        if (record.offset() < slice.end()) {
          slice.handler().accept(record);
          read++;
          moved = true;
        }
      }
      for (TopicPartition tp : List.copyOf(open)) {
        if (consumer.position(tp) >= byPartition.get(tp).end()) {
          open.remove(tp);
          consumer.pause(List.of(tp)); // read_committed may skip past the end (markers): nothing beyond it is wanted
          moved = true;
        }
      }
      if (moved) {
        lastProgressNs = System.nanoTime();
        progress.update(read, total);
      } else if (System.nanoTime() - lastProgressNs > STALL.toNanos()) {
        throw new ProcessException("reading the recorded topics from " + bootstrap() + " stalled for " + STALL.toSeconds()
            + " s at " + open.iterator().next());
      }
    }
    progress.update(total, total);
  }

  private int partitionCount(KafkaConsumer<String, byte[]> consumer, Topic<?, ?> topic, int expected) {
    List<PartitionInfo> infos = consumer.listTopics(TIMEOUT).get(topic.name());
    if (infos == null || infos.isEmpty()) {
      throw new ProcessException(ClusterConnection.noTopic(topic.name(), bootstrap()));
    }
    if (expected > 0 && infos.size() != expected) {
      throw new ProcessException(topic.name() + " has " + infos.size() + " partitions where " + expected + " were expected"
          + (expected == 1 ? "" : " (as many as " + topics.samples().name() + "): node-partitioned topics must have equal counts")
          + "; nothing was replayed");
    }
    return infos.size();
  }

  private Object bootstrap() {
    return clientProperties.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
  }

  /** The input side: per topic-partition queues, configs before the warm-up folded to the ones in force. */
  private final class Inputs {
    private final long readFromMs;
    private final long toMs;
    private final int partitions;
    private final Set<String> nodes;
    private final Map<TopicPartition, List<InputRecord>> queues = new LinkedHashMap<>();
    /** Per topic-partition, the latest record per key before the warm-up start (tombstones included, dropped at the end). */
    private final Map<TopicPartition, LinkedHashMap<String, InputRecord>> inForce = new LinkedHashMap<>();
    long unreadable;
    long misplaced;

    Inputs(long readFromMs, long toMs, int partitions, Set<String> nodes) {
      this.readFromMs = readFromMs;
      this.toMs = toMs;
      this.partitions = partitions;
      this.nodes = nodes;
    }

    Consumer<ConsumerRecord<String, byte[]>> handler(Kind kind, Topic<String, ? extends SpecificRecord> topic) {
      return record -> {
        if (record.timestamp() >= toMs) {
          return;
        }
        if (kind == Kind.RESULT && EnforcementHeaders.saysOtherThan(record.headers(), EnforcementStatus.REFLEX_FROZEN)) {
          return; // not an input of the app's: it drops such results undecoded
        }
        String node = record.key() == null ? null : TaskKey.nodeOf(record.key());
        boolean byNode = kind != Kind.CLUSTER && kind != Kind.POOL;
        if (byNode && node != null && !nodes.isEmpty() && !nodes.contains(node)) {
          return;
        }
        if (byNode && node != null && NodePartitioning.partitionOfNode(node, partitions) != record.partition()) {
          misplaced++;
          return;
        }
        SpecificRecord value;
        try {
          value = record.value() == null ? null : topic.valueSerde().deserializer().deserialize(record.topic(), record.value());
        } catch (SerializationException | IllegalArgumentException e) {
          unreadable++;
          return;
        }
        if (kind == Kind.RESULT && !isReflexFreeze(value)) {
          return; // the app reads only the reflex's freezes of enforcement-results
        }
        TopicPartition tp = new TopicPartition(record.topic(), record.partition());
        if (record.timestamp() < readFromMs && !kind.isStream()) {
          LinkedHashMap<String, InputRecord> latest = inForce.computeIfAbsent(tp, t -> new LinkedHashMap<>());
          latest.remove(record.key()); // so the map keeps the order of the latest writes
          latest.put(record.key(), new InputRecord(kind, record.partition(), record.offset(), readFromMs, record.key(), value));
        } else {
          queues.computeIfAbsent(tp, t -> new ArrayList<>())
              .add(new InputRecord(kind, record.partition(), record.offset(), record.timestamp(), record.key(), value));
        }
      };
    }

    private static boolean isReflexFreeze(SpecificRecord value) {
      return value instanceof EnforcementResult r && r.getKind() == EnforcementKind.FREEZE
          && r.getStatus() == EnforcementStatus.REFLEX_FROZEN;
    }

    List<List<InputRecord>> queues() {
      List<List<InputRecord>> all = new ArrayList<>();
      Set<TopicPartition> partitions = new java.util.LinkedHashSet<>(inForce.keySet());
      partitions.addAll(queues.keySet());
      for (TopicPartition tp : partitions) {
        List<InputRecord> queue = new ArrayList<>();
        inForce.getOrDefault(tp, new LinkedHashMap<>()).values().stream().filter(r -> r.value() != null).forEach(queue::add);
        queue.addAll(queues.getOrDefault(tp, List.of()));
        all.add(queue);
      }
      return all;
    }
  }

  /** The output side: decisions in the compared range, and who had decisions before the warm-up. */
  private final class Outputs {
    private final long readFromMs;
    private final long toMs;
    private final Set<String> nodes;
    final List<Timed<CpuDecision>> cpu = new ArrayList<>();
    final List<Timed<FreezeDecision>> freeze = new ArrayList<>();
    final List<Timed<PoolState>> poolStates = new ArrayList<>();
    final Set<String> tasksBefore = new TreeSet<>();
    final Set<String> nodesBefore = new TreeSet<>();
    final Set<String> poolsBefore = new TreeSet<>();

    Outputs(long readFromMs, long toMs, Set<String> nodes) {
      this.readFromMs = readFromMs;
      this.toMs = toMs;
      this.nodes = nodes;
    }

    Consumer<ConsumerRecord<String, byte[]>> cpu() {
      return record -> decision(record, topics.cpuDecisions(), cpu, true);
    }

    Consumer<ConsumerRecord<String, byte[]>> freeze() {
      return record -> decision(record, topics.freezeDecisions(), freeze, false);
    }

    Consumer<ConsumerRecord<String, byte[]>> pools() {
      return record -> {
        if (record.timestamp() < readFromMs) {
          poolsBefore.add(record.key());
        } else if (record.timestamp() < toMs && record.value() != null) {
          poolStates.add(new Timed<>(record.key(), record.timestamp(),
              topics.poolState().valueSerde().deserializer().deserialize(record.topic(), record.value())));
        }
      };
    }

    private <V> void decision(ConsumerRecord<String, byte[]> record, Topic<String, V> topic, List<Timed<V>> into, boolean tasks) {
      String node = record.key() == null ? null : TaskKey.nodeOf(record.key());
      if (!nodes.isEmpty() && !nodes.contains(node)) {
        return;
      }
      if (record.timestamp() < readFromMs) {
        nodesBefore.add(node);
        if (tasks) {
          tasksBefore.add(record.key());
        }
      } else if (record.timestamp() < toMs && record.value() != null) {
        into.add(new Timed<>(record.key(), record.timestamp(), topic.valueSerde().deserializer().deserialize(record.topic(), record.value())));
      }
    }
  }
}
