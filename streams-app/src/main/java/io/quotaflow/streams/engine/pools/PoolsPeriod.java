package io.quotaflow.streams.engine.pools;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything one pool update needs.
 *
 * @param tsMs stream time of the update period, epoch ms (the engine reads no clock)
 * @param pools the configured pools; pools with load but no config join as ephemeral pools
 * @param loads per pool; a configured pool that is absent has no live task
 * @param volumes per pool, as returned by the previous update; an absent pool starts empty
 */
public record PoolsPeriod(
    long tsMs,
    PoolClusterSettings cluster,
    List<PoolSpec> pools,
    Map<String, PoolLoad> loads,
    Map<String, PoolVolumeState> volumes) {

  public PoolsPeriod {
    Objects.requireNonNull(cluster, "cluster");
    pools = List.copyOf(pools);
    loads = Map.copyOf(loads);
    volumes = Map.copyOf(volumes);
  }
}
