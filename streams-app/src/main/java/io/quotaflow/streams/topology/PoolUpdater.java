package io.quotaflow.streams.topology;

import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.PoolState;
import io.quotaflow.schemas.avro.internal.BroadcastKind;
import io.quotaflow.schemas.avro.internal.ConfigBroadcast;
import io.quotaflow.schemas.avro.internal.PoolBarrierRecord;
import io.quotaflow.schemas.avro.internal.PoolCapRecord;
import io.quotaflow.schemas.avro.internal.PoolPartialReport;
import io.quotaflow.schemas.avro.internal.PoolVolumeRecord;
import io.quotaflow.streams.engine.pools.IntegralPools;
import io.quotaflow.streams.engine.pools.PeriodBarrier;
import io.quotaflow.streams.engine.pools.PoolAttributes;
import io.quotaflow.streams.engine.pools.PoolSpec;
import io.quotaflow.streams.engine.pools.PoolVolumeState;
import io.quotaflow.streams.engine.pools.PoolsPeriod;
import io.quotaflow.streams.engine.pools.PoolsUpdate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The one pool processor (DESIGN §3), on the single-partition {@code pool-partials}: each node
 * partition's period report goes through the {@link PeriodBarrier}; every period it makes ready is
 * one {@link IntegralPools} update with the configs in force, published on {@code pool-state}, and
 * each pool's cap ratio, when it moved, is broadcast to every partition for its tasks' next tick.
 * V, L and the barrier are changelogged, so a restart continues exactly where it stopped.
 */
final class PoolUpdater extends ContextualProcessor<String, PoolPartialReport, String, Object> {

  static final String BARRIER_KEY = "barrier";
  /** Cap ratios closer than this are the same cap: nothing is broadcast. */
  private static final double CAP_EPSILON = 1e-9;

  private final int partitions;
  private final TopologyProbe probe;
  private final IntegralPools engine = new IntegralPools();
  private KeyValueStore<String, ConfigBroadcast> configs;
  private KeyValueStore<String, PoolBarrierRecord> barrier;
  private KeyValueStore<String, PoolVolumeRecord> volumes;
  private KeyValueStore<String, PoolState> latest;

  PoolUpdater(int partitions, TopologyProbe probe) {
    this.partitions = partitions;
    this.probe = probe;
  }

  @Override
  public void init(ProcessorContext<String, Object> context) {
    super.init(context);
    configs = context.getStateStore(Names.POOL_CONFIG_STORE);
    barrier = context.getStateStore(Names.POOL_BARRIER_STORE);
    volumes = context.getStateStore(Names.POOL_VOLUMES_STORE);
    latest = context.getStateStore(Names.POOL_STATE_LATEST_STORE);
  }

  @Override
  public void process(Record<String, PoolPartialReport> record) {
    PoolPartialReport report = record.value();
    if (report == null || report.getPartition() < 0 || report.getPartition() >= partitions) {
      throw new RejectedRecordException("a pool partial report needs a partition in [0, " + partitions + "), got "
          + (report == null ? "no value" : report.getPartition()));
    }
    PoolBarrierRecord stored = barrier.get(BARRIER_KEY);
    PeriodBarrier gate = stored == null
        ? new PeriodBarrier(partitions) : PeriodBarrier.restore(partitions, PoolRecords.barrier(stored));
    List<PeriodBarrier.ReadyPeriod> ready = gate.add(PoolRecords.report(report));
    barrier.put(BARRIER_KEY, PoolRecords.barrier(gate.snapshot(), report.getPeriodMs()));
    for (PeriodBarrier.ReadyPeriod period : ready) {
      update(period, report.getPeriodMs());
    }
  }

  private void update(PeriodBarrier.ReadyPeriod period, long periodMs) {
    ClusterConfig cluster = TaskStores.cluster(configs);
    long tsMs = (period.period() + 1) * periodMs;
    List<PoolSpec> specs = new ArrayList<>();
    Map<String, PoolVolumeRecord> stored = new TreeMap<>();
    try (KeyValueIterator<String, ConfigBroadcast> all = configs.prefixScan(TaskStores.POOL_KEY_PREFIX,
        new org.apache.kafka.common.serialization.StringSerializer())) {
      all.forEachRemaining(kv -> specs.add(PoolRecords.spec(kv.value.getPoolConfig())));
    }
    Map<String, PoolVolumeState> volumeStates = new TreeMap<>();
    try (KeyValueIterator<String, PoolVolumeRecord> all = volumes.all()) {
      all.forEachRemaining(kv -> {
        stored.put(kv.key, kv.value);
        volumeStates.put(kv.key, PoolRecords.volume(kv.value));
      });
    }
    PoolsUpdate update = engine.update(new PoolsPeriod(tsMs, PoolRecords.settings(cluster, period.nodeCpus()), specs,
        period.loads(), volumeStates));
    Set<String> published = new HashSet<>();
    for (PoolAttributes state : update.states()) {
      PoolState record = PoolRecords.state(state);
      context().forward(new Record<>(state.pool(), (Object) record, tsMs), Names.POOL_STATE_SINK);
      latest.put(state.pool(), record);
      published.add(state.pool());
    }
    // A pool this update no longer covers is gone: the live view shows the pools in force, not every pool ever seen.
    List<String> gone = new ArrayList<>();
    try (KeyValueIterator<String, PoolState> all = latest.all()) {
      all.forEachRemaining(kv -> {
        if (!published.contains(kv.key)) {
          gone.add(kv.key);
        }
      });
    }
    gone.forEach(latest::delete);
    probe.poolStates(update.states());
    update.volumes().forEach((pool, volume) -> {
      double cap = update.capRatioByPool().getOrDefault(pool, 1.0);
      PoolVolumeRecord before = stored.get(pool);
      double broadcastCap = before == null ? 1.0 : before.getCapRatio();
      if (Math.abs(cap - broadcastCap) > CAP_EPSILON) {
        ConfigBroadcast copy = ConfigBroadcast.newBuilder().setKind(BroadcastKind.POOL_CAP).setId(pool)
            .setPoolCap(PoolCapRecord.newBuilder().setPool(pool).setCapRatio(cap).setTsMs(tsMs).build()).build();
        context().forward(new Record<>(ConfigBroadcaster.keyOf(BroadcastKind.POOL_CAP, pool), (Object) copy, tsMs),
            Names.POOL_CAP_BROADCAST_SINK);
        broadcastCap = cap;
      }
      volumes.put(pool, PoolRecords.volume(pool, volume, broadcastCap));
    });
  }

  /** The partition moved away or the app stops: the instance that runs the processor next shows the pools. */
  @Override
  public void close() {
    probe.poolStates(List.of());
  }
}
