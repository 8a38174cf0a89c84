package io.quotaflow.streams.topology;

import static io.quotaflow.streams.topology.Names.*;

import io.quotaflow.schemas.NodeStreamPartitioner;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.PoolState;
import io.quotaflow.schemas.avro.internal.GateTaskRecord;
import io.quotaflow.schemas.avro.internal.MemoryProfileRecord;
import io.quotaflow.schemas.avro.internal.PeakGateStateRecord;
import io.quotaflow.schemas.avro.internal.PoolBarrierRecord;
import io.quotaflow.schemas.avro.internal.PoolPartial;
import io.quotaflow.schemas.avro.internal.PoolPartialReport;
import io.quotaflow.schemas.avro.internal.PoolVolumeRecord;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import io.quotaflow.schemas.avro.internal.TaskRecord;
import io.quotaflow.schemas.avro.internal.TaskUsageStatsRecord;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The whole streams app as a pure function of the topic catalogue: {@code main}, the tests and
 * {@code simulate} all call {@link #build}. Three sub-topologies:
 *
 * <ol>
 *   <li>configs and pools, on one partition — the single-partition {@code cluster-config} and
 *       {@code pool-configs} topics, validated, copied to every partition of {@code config-broadcast};
 *       and the pool processor: the node partitions' period reports on {@code pool-partials} through
 *       the barrier into {@code pool-state}, each pool's cap ratio broadcast back;
 *   <li>decisions, per node partition: {@code samples}, {@code task-specs}, {@code nodes} and the
 *       broadcast configs into the per-task CPU store, {@code cpu-decisions} out; and into each
 *       node's peak gate, with the enforcers' reflex freezes from {@code enforcement-results},
 *       {@code freeze-decisions} and {@code gate-tables} out, finished tasks' usage out to
 *       {@code memory-usage} re-keyed by operation. Each source's records are checked once
 *       ({@link InputCheck}), then fed to the CPU processor first (which updates the node and
 *       config stores the gate reads), then to the gate processor;
 *   <li>learned profiles — {@code memory-usage} folded per operation, each new profile broadcast
 *       back to every partition of {@code config-broadcast}.
 * </ol>
 */
public final class QuotaflowTopology {

  private QuotaflowTopology() {}

  public static Topology build(Topics topics) {
    return build(topics, TopologyProbe.NONE);
  }

  public static Topology build(Topics topics, TopologyProbe probe) {
    int partitions = topics.settings().partitions();
    Topology topology = new Topology();

    source(topology, CLUSTER_CONFIG_SOURCE, topics.clusterConfig());
    source(topology, POOL_CONFIGS_SOURCE, topics.poolConfigs());
    topology.addProcessor(CLUSTER_CONFIG_BROADCASTER, ConfigBroadcaster::cluster, CLUSTER_CONFIG_SOURCE);
    topology.addProcessor(POOL_CONFIG_BROADCASTER, ConfigBroadcaster::pool, POOL_CONFIGS_SOURCE);
    topology.addSink(CONFIG_BROADCAST_SINK, topics.configBroadcast().name(),
        topics.configBroadcast().keySerde().serializer(), topics.configBroadcast().valueSerde().serializer(),
        new BroadcastPartitioner<>(), CLUSTER_CONFIG_BROADCASTER, POOL_CONFIG_BROADCASTER);

    // The pool processor shares the configs' single-partition task: it reads them in time order with the partials.
    source(topology, POOL_PARTIALS_SOURCE, topics.poolPartials());
    topology.addProcessor(POOL_UPDATER, () -> new PoolUpdater(partitions, probe), POOL_PARTIALS_SOURCE);
    topology.addStateStore(store(POOL_CONFIG_STORE, topics.configBroadcast().valueSerde()),
        CLUSTER_CONFIG_BROADCASTER, POOL_CONFIG_BROADCASTER, POOL_UPDATER);
    topology.addStateStore(store(POOL_BARRIER_STORE, topics.valueSerde(PoolBarrierRecord.class)), POOL_UPDATER);
    topology.addStateStore(store(POOL_VOLUMES_STORE, topics.valueSerde(PoolVolumeRecord.class)), POOL_UPDATER);
    // Read only by interactive queries (GET /pools): pool-state is a topic, this is its newest value per pool.
    topology.addStateStore(store(POOL_STATE_LATEST_STORE, topics.valueSerde(PoolState.class)),
        POOL_UPDATER);
    topology.addSink(POOL_STATE_SINK, topics.poolState().name(), topics.poolState().keySerde().serializer(),
        topics.poolState().valueSerde().serializer(), POOL_UPDATER);
    topology.addSink(POOL_CAP_BROADCAST_SINK, topics.configBroadcast().name(),
        topics.configBroadcast().keySerde().serializer(), topics.configBroadcast().valueSerde().serializer(),
        new BroadcastPartitioner<>(), POOL_UPDATER);

    source(topology, CONFIG_BROADCAST_SOURCE, topics.configBroadcast());
    source(topology, TASK_SPECS_SOURCE, topics.taskSpecs());
    source(topology, NODES_SOURCE, topics.nodes());
    source(topology, SAMPLES_SOURCE, topics.samples());
    // Each source's records are checked once, before any processor: refused, one goes to the DLQ and reaches none (InputCheck).
    topology.addProcessor(TASK_SPECS_CHECK, () -> new InputCheck<>(partitions, RecordChecks::requireValidSpec), TASK_SPECS_SOURCE);
    topology.addProcessor(NODES_CHECK, () -> new InputCheck<>(partitions, RecordChecks::requireValidNodeStatus), NODES_SOURCE);
    topology.addProcessor(SAMPLES_CHECK, () -> new InputCheck<>(partitions, RecordChecks::requireValidSample), SAMPLES_SOURCE);
    // One processor for the four inputs: its stores have no other writer, so it keeps what it read of them (CpuProcessor).
    topology.addProcessor(CPU_PROCESSOR, () -> new CpuProcessor(topics, probe),
        SAMPLES_CHECK, TASK_SPECS_CHECK, NODES_CHECK, CONFIG_BROADCAST_SOURCE);

    // Read and written on every sample, by this processor and the peak gate, each its part of a task's record
    // (TaskRecords); read through the processor's memo of the states it last wrote (TaskStores).
    topology.addStateStore(writtenPerSample(TASK_STORE, topics.valueSerde(TaskRecord.class)), CPU_PROCESSOR);
    // Where the two parts were kept before 2026-11-29: restored, then moved into the task records at start.
    topology.addStateStore(uncached(LEGACY_TASK_CPU_STORE, topics.valueSerde(TaskCpuState.class)), CPU_PROCESSOR);
    topology.addStateStore(uncached(LEGACY_GATE_TASKS_STORE, topics.valueSerde(GateTaskRecord.class)), CPU_PROCESSOR);
    // The tasks' specs, kept apart from their states so a sample does not rewrite its task's spec; read with the state.
    topology.addStateStore(uncached(TASK_SPEC_STORE, topics.taskSpecs().valueSerde()), CPU_PROCESSOR);
    // Written by the CPU processor alone, which reads each value once (TaskStores); the peak gate reads them as its
    // gates load or reconfigure.
    topology.addStateStore(store(NODE_STATUS_STORE, topics.nodes().valueSerde()), CPU_PROCESSOR);
    topology.addStateStore(store(CONFIG_STORE, topics.configBroadcast().valueSerde()), CPU_PROCESSOR);
    topology.addStateStore(writtenPerSample(POOL_PARTIALS_STORE, topics.valueSerde(PoolPartial.class)), CPU_PROCESSOR);
    // The last report, to see whether an event closes a period; rewritten once a period.
    topology.addStateStore(store(POOL_REPORT_STORE, topics.valueSerde(PoolPartialReport.class)), CPU_PROCESSOR);

    topology.addSink(CPU_DECISIONS_SINK, topics.cpuDecisions().name(), topics.cpuDecisions().keySerde().serializer(),
        topics.cpuDecisions().valueSerde().serializer(), new NodeStreamPartitioner<>(), CPU_PROCESSOR);
    // Once a period of stream time, this partition's pool sums to the one pool processor.
    topology.addSink(POOL_PARTIALS_SINK, topics.poolPartials().name(), topics.poolPartials().keySerde().serializer(),
        topics.poolPartials().valueSerde().serializer(), CPU_PROCESSOR);

    // The enforcers' reflex freezes, node-partitioned like samples: the gate adopts or overrules each.
    topology.addSource(ENFORCEMENT_RESULTS_SOURCE, topics.enforcementResults().keySerde().deserializer(),
        new ReflexFreezeDeserializer(topics.enforcementResults().valueSerde().deserializer()),
        topics.enforcementResults().name());
    topology.addProcessor(ENFORCEMENT_RESULTS_CHECK, () -> new InputCheck<>(partitions, RecordChecks::isReflexFreeze,
        RecordChecks::requireValidReflexFreeze), ENFORCEMENT_RESULTS_SOURCE);
    // Added after the CPU processor of the same sources: each record reaches it first.
    topology.addProcessor(PEAK_GATE, () -> new PeakGateProcessor(topics, probe),
        SAMPLES_CHECK, TASK_SPECS_CHECK, NODES_CHECK, CONFIG_BROADCAST_SOURCE, ENFORCEMENT_RESULTS_CHECK);
    topology.addStateStore(store(PEAK_GATE_STORE, topics.valueSerde(PeakGateStateRecord.class)), PEAK_GATE);
    // Read only to carry over the usage totals an older version kept here (GateStores): the task records hold them now.
    topology.addStateStore(store(MEMORY_USAGE_STATS_STORE, topics.valueSerde(TaskUsageStatsRecord.class)), PEAK_GATE);
    topology.addStateStore(store(GATE_TABLE_STORE, topics.gateTables().valueSerde()), PEAK_GATE);
    topology.connectProcessorAndStateStores(PEAK_GATE, TASK_STORE, NODE_STATUS_STORE, CONFIG_STORE);
    topology.addSink(FREEZE_DECISIONS_SINK, topics.freezeDecisions().name(), topics.freezeDecisions().keySerde().serializer(),
        topics.freezeDecisions().valueSerde().serializer(), new NodeStreamPartitioner<>(), PEAK_GATE);
    topology.addSink(GATE_TABLES_SINK, topics.gateTables().name(), topics.gateTables().keySerde().serializer(),
        topics.gateTables().valueSerde().serializer(), new NodeStreamPartitioner<>(), PEAK_GATE);
    // Re-keyed by operation: every finished task of an operation reaches the one learner of its profile.
    topology.addSink(MEMORY_USAGE_SINK, topics.memoryUsage().name(), topics.memoryUsage().keySerde().serializer(),
        topics.memoryUsage().valueSerde().serializer(), PEAK_GATE);

    source(topology, MEMORY_USAGE_SOURCE, topics.memoryUsage());
    topology.addProcessor(PROFILE_LEARNER, ProfileLearner::new, MEMORY_USAGE_SOURCE);
    topology.addStateStore(store(MEMORY_PROFILES_STORE, topics.valueSerde(MemoryProfileRecord.class)), PROFILE_LEARNER);
    topology.addSink(PROFILE_BROADCAST_SINK, topics.configBroadcast().name(),
        topics.configBroadcast().keySerde().serializer(), topics.configBroadcast().valueSerde().serializer(),
        new BroadcastPartitioner<>(), PROFILE_LEARNER);
    return topology;
  }

  /**
   * The changelog topics of the per-task records (CPU state and gate record) and of the tasks' specs, for tools that
   * measure or inspect them.
   */
  public static List<String> taskChangelogs(String applicationId) {
    return List.of(applicationId + "-" + TASK_STORE + "-changelog",
        applicationId + "-" + TASK_SPEC_STORE + "-changelog");
  }

  private static void source(Topology topology, String name, Topic<String, ?> topic) {
    topology.addSource(name, topic.keySerde().deserializer(), topic.valueSerde().deserializer(), topic.name());
  }

  /**
   * Cached: the record cache turns the writes of a key between two commits into one RocksDB put and one
   * changelog record, and answers reads of what was written. Forwarded decisions do not pass through it (in the
   * Processor API the cache holds store writes only), so no decision waits for it.
   */
  static <V> StoreBuilder<KeyValueStore<String, V>> store(String name, Serde<V> valueSerde) {
    return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.String(), valueSerde)
        .withCachingEnabled();
  }

  /**
   * Not cached: a store written when its value changes, seldom twice between two commits, and read only when the
   * processor has not kept the value in memory. The record cache would keep a copy of what was last written and
   * read, up to its whole size: for the specs, ~25 MB of heap at 100,000 tasks in {@code bench cpu} (the cache
   * counts 10 MiB of them) that nothing reads again.
   */
  static <V> StoreBuilder<KeyValueStore<String, V>> uncached(String name, Serde<V> valueSerde) {
    return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.String(), valueSerde)
        .withCachingDisabled();
  }

  /**
   * A store written on every sample (or every decision): its writes wait in memory for the commit
   * ({@link WriteBackStore}), so a task sampled several times between two commits is encoded once. Not cached:
   * the writes reach it once per key and commit already, and its processor keeps what it reads in memory
   * ({@link TaskStores}, {@link GateStores}), so the record cache would only copy each write once more before
   * the same RocksDB put and changelog record.
   */
  static <V> StoreBuilder<KeyValueStore<String, V>> writtenPerSample(String name, Serde<V> valueSerde) {
    return WriteBackStore.writingBack(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name),
        Serdes.String(), valueSerde).withCachingDisabled());
  }
}
