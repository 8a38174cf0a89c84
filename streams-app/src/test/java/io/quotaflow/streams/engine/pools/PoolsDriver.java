package io.quotaflow.streams.engine.pools;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Drives {@link IntegralPools} through successive periods as the topology would, keeping the state. */
final class PoolsDriver {

  static final long START_MS = 1_700_000_000_000L;

  private final IntegralPools engine = new IntegralPools();
  private final PoolClusterSettings cluster;
  private final List<PoolSpec> pools;
  private final Map<String, PoolVolumeState> volumes = new HashMap<>();
  private long nowMs = START_MS;
  private boolean started;

  PoolsDriver(PoolClusterSettings cluster, PoolSpec... pools) {
    this.cluster = cluster;
    this.pools = List.of(pools);
  }

  /** The first update (no volume tick), then one every {@code seconds}. */
  PoolsUpdate after(double seconds, Map<String, PoolLoad> loads) {
    if (started) {
      nowMs += Math.round(seconds * 1000);
    }
    started = true;
    PoolsUpdate update = engine.update(new PoolsPeriod(nowMs, cluster, pools, loads, volumes));
    volumes.clear();
    volumes.putAll(update.volumes());
    return update;
  }

  PoolsUpdate first(Map<String, PoolLoad> loads) {
    return after(0, loads);
  }

  /** Puts {@code volumeCpu} into a pool as if it had accumulated it, with nothing granted yet. */
  void giveVolume(String pool, double volumeCpu) {
    PoolVolumeState old = volumes.getOrDefault(pool, PoolVolumeState.INITIAL);
    volumes.put(pool, new PoolVolumeState(volumeCpu, 0.0, old.lastUpdateMs()));
  }

  double volumeCpu(String pool) {
    return volumes.getOrDefault(pool, PoolVolumeState.INITIAL).accumulatedResourceVolumeCpu();
  }

  Map<String, PoolVolumeState> volumes() {
    return Map.copyOf(volumes);
  }
}
