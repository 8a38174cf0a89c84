package io.quotaflow.cli.replay;

import io.quotaflow.process.UsageException;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.PoolState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.BroadcastKind;
import io.quotaflow.schemas.avro.internal.ConfigBroadcast;
import io.quotaflow.streams.simulate.OfflineDriver;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.test.TestRecord;

/**
 * One run of the real topology offline ({@link OfflineDriver}, as {@code simulate} runs it) over a
 * recording's merged inputs, with the what-if overrides applied to every config record as it is
 * piped. Keeps what it produced in the compared range, and what travelled the app's internal loops
 * (pool caps, learned profiles), whose timing in the live app a replay cannot reproduce.
 */
public final class ReplayRun {

  /** Outputs drained this often: the driver keeps every produced record until read. */
  private static final int DRAIN_EVERY = 4096;
  private static final double UNCAPPED = 1.0 - 1e-9;

  /**
   * @param cappedPools pools whose cap ratio went below 1 at some time of the replay
   * @param learnedOperations operations that learned a memory profile during the replay
   * @param rejected input records the topology sent to its dead-letter queue
   * @param gatesMovedByOtherPartitions nodes whose peak gate the replay may move on at other times than the live app
   *     ({@link SilentNodes})
   */
  public record Replayed(List<Timed<CpuDecision>> cpu, List<Timed<FreezeDecision>> freeze, List<Timed<PoolState>> poolStates,
      Set<String> cappedPools, Set<String> learnedOperations, long recordsIn, long rejected, Set<String> gatesMovedByOtherPartitions) {}

  private ReplayRun() {}

  /**
   * @param merged the inputs in the live app's order ({@link InputMerge})
   * @param partitions the recorded node-partitioned topics' partition count (the replay itself runs on one)
   * @param keepFromMs outputs before this (the warm-up's) are dropped
   */
  public static Replayed run(List<InputRecord> merged, Overrides overrides, int partitions, long keepFromMs, long toMs) {
    requireOverriddenIdsRecorded(merged, overrides);
    long startMs = merged.isEmpty() ? keepFromMs : merged.get(0).timestampMs();
    try (OfflineDriver offline = new OfflineDriver(Instant.ofEpochMilli(startMs))) {
      Topics topics = offline.topics();
      TestInputTopic<String, CgroupSample> samples = offline.input(topics.samples());
      TestInputTopic<String, TaskSpec> specs = offline.input(topics.taskSpecs());
      TestInputTopic<String, NodeStatus> nodes = offline.input(topics.nodes());
      TestInputTopic<String, ClusterConfig> cluster = offline.input(topics.clusterConfig());
      TestInputTopic<String, PoolConfig> pools = offline.input(topics.poolConfigs());
      TestInputTopic<String, EnforcementResult> results = offline.input(topics.enforcementResults());
      Collector out = new Collector(offline, keepFromMs, toMs);

      boolean clusterSeen = merged.stream().anyMatch(r -> r.kind() == InputRecord.Kind.CLUSTER);
      if (!clusterSeen && !overrides.cluster().isEmpty()) {
        cluster.pipeInput("main", overrides.cluster((ClusterConfig) null), startMs);
      }
      Set<String> poolsSeen = new TreeSet<>();
      merged.stream().filter(r -> r.kind() == InputRecord.Kind.POOL).forEach(r -> poolsSeen.add(r.key()));
      for (String pool : overrides.namedPools()) {
        if (!poolsSeen.contains(pool)) {
          pools.pipeInput(pool, overrides.fresh(pool), startMs);
        }
      }
      long piped = 0;
      for (InputRecord r : merged) {
        switch (r.kind()) {
          case SAMPLE -> samples.pipeInput(r.key(), (CgroupSample) r.value(), r.timestampMs());
          case TASK -> specs.pipeInput(r.key(), overrides.task(r.key(), (TaskSpec) r.value()), r.timestampMs());
          case NODE -> nodes.pipeInput(r.key(), (NodeStatus) r.value(), r.timestampMs());
          case CLUSTER -> cluster.pipeInput(r.key(), overrides.cluster((ClusterConfig) r.value()), r.timestampMs());
          case POOL -> pools.pipeInput(r.key(), overrides.pool(r.key(), (PoolConfig) r.value()), r.timestampMs());
          case RESULT -> results.pipeInput(r.key(), (EnforcementResult) r.value(), r.timestampMs());
          default -> throw new IllegalStateException("no such input kind " + r.kind());
        }
        if (++piped % DRAIN_EVERY == 0) {
          out.drain();
        }
      }
      out.drain();
      return new Replayed(out.cpu, out.freeze, out.poolStates, out.cappedPools, out.learnedOperations, piped, out.rejected,
          SilentNodes.movedByOtherPartitions(merged, partitions));
    }
  }

  /** A {@code --set} naming a task never recorded is a typo more often than a question: refuse it. */
  private static void requireOverriddenIdsRecorded(List<InputRecord> merged, Overrides overrides) {
    Set<String> tasks = new TreeSet<>();
    merged.stream().filter(r -> r.kind() == InputRecord.Kind.TASK).forEach(r -> tasks.add(r.key()));
    for (String task : overrides.namedTasks()) {
      if (!tasks.contains(task)) {
        throw new UsageException("--set task." + task + ".…: no spec of task " + task + " was recorded up to --to"
            + (tasks.isEmpty() ? "" : " (tasks with specs: " + abbreviated(tasks) + ")"));
      }
    }
  }

  private static String abbreviated(Set<String> ids) {
    List<String> first = ids.stream().limit(10).toList();
    return String.join(", ", first) + (ids.size() > first.size() ? ", … " + (ids.size() - first.size()) + " more" : "");
  }

  /** Reads the driver's outputs as they come. */
  private static final class Collector {
    private final OfflineDriver offline;
    private final long keepFromMs;
    private final long toMs;
    private final TestOutputTopic<String, CpuDecision> cpuTopic;
    private final TestOutputTopic<String, FreezeDecision> freezeTopic;
    private final TestOutputTopic<String, PoolState> poolTopic;
    private final TestOutputTopic<String, ConfigBroadcast> broadcastTopic;
    private final TestOutputTopic<byte[], byte[]> dlqTopic;
    /** Not compared (nothing reads them but the enforcers' reflex): read undecoded so the driver does not keep them. */
    private final TestOutputTopic<String, byte[]> tablesTopic;
    private final Topics topics;
    final List<Timed<CpuDecision>> cpu = new ArrayList<>();
    final List<Timed<FreezeDecision>> freeze = new ArrayList<>();
    final List<Timed<PoolState>> poolStates = new ArrayList<>();
    final Set<String> cappedPools = new TreeSet<>();
    final Set<String> learnedOperations = new TreeSet<>();
    long rejected;

    Collector(OfflineDriver offline, long keepFromMs, long toMs) {
      this.offline = offline;
      this.keepFromMs = keepFromMs;
      this.toMs = toMs;
      topics = offline.topics();
      cpuTopic = offline.output(topics.cpuDecisions());
      freezeTopic = offline.output(topics.freezeDecisions());
      poolTopic = offline.output(topics.poolState());
      broadcastTopic = offline.output(topics.configBroadcast());
      dlqTopic = offline.output(topics.dlq());
      tablesTopic = offline.driver().createOutputTopic(topics.gateTables().name(),
          new StringDeserializer(),
          new ByteArrayDeserializer());
    }

    void drain() {
      Set<String> produced = offline.driver().producedTopicNames();
      if (produced.contains(topics.cpuDecisions().name())) {
        keep(cpuTopic.readRecordsToList(), cpu);
      }
      if (produced.contains(topics.freezeDecisions().name())) {
        keep(freezeTopic.readRecordsToList(), freeze);
      }
      if (produced.contains(topics.poolState().name())) {
        keep(poolTopic.readRecordsToList(), poolStates);
      }
      if (produced.contains(topics.configBroadcast().name())) {
        for (TestRecord<String, ConfigBroadcast> r : broadcastTopic.readRecordsToList()) {
          ConfigBroadcast b = r.value();
          if (b == null) {
            continue;
          }
          if (b.getKind() == BroadcastKind.POOL_CAP && b.getPoolCap() != null && b.getPoolCap().getCapRatio() < UNCAPPED) {
            cappedPools.add(b.getId());
          } else if (b.getKind() == BroadcastKind.MEMORY_PROFILE) {
            learnedOperations.add(b.getId());
          }
        }
      }
      if (produced.contains(topics.dlq().name())) {
        rejected += dlqTopic.readRecordsToList().size();
      }
      if (produced.contains(topics.gateTables().name())) {
        tablesTopic.readRecordsToList();
      }
    }

    private <V> void keep(List<TestRecord<String, V>> records, List<Timed<V>> into) {
      for (TestRecord<String, V> r : records) {
        long ts = r.timestamp();
        if (ts >= keepFromMs && ts < toMs && r.value() != null) {
          into.add(new Timed<>(r.key(), ts, r.value()));
        }
      }
    }
  }

  /** Groups records by key, each key's in order. */
  static <V> Map<String, List<Timed<V>>> byKey(List<Timed<V>> records) {
    Map<String, List<Timed<V>>> byKey = new TreeMap<>();
    records.forEach(r -> byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r));
    return byKey;
  }
}
