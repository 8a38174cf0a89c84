package io.quotaflow.streams.engine.pools;

import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The result of one pool update.
 *
 * @param states one per pool (configured or ephemeral), in pool order: what {@code pool-state} publishes
 * @param volumes the state to store per pool for the next update
 * @param capRatioByPool per pool, the factor a task's soft limit is multiplied by to give its
 *     effective limit (see {@link PoolCaps})
 * @param overcommitted whether the pools' demand exceeded the cluster, so that caps apply
 * @param warnings configurations YTsaurus accepts with an alert (e.g. guarantees above the cluster)
 */
public record PoolsUpdate(
    long tsMs,
    List<PoolAttributes> states,
    SortedMap<String, PoolVolumeState> volumes,
    SortedMap<String, Double> capRatioByPool,
    boolean overcommitted,
    List<String> warnings) {

  public PoolsUpdate {
    states = List.copyOf(states);
    volumes = Collections.unmodifiableSortedMap(new TreeMap<>(volumes));
    capRatioByPool = Collections.unmodifiableSortedMap(new TreeMap<>(capRatioByPool));
    warnings = List.copyOf(warnings);
  }

  /** The state of {@code pool}, or an exception naming it when the update did not cover it. */
  public PoolAttributes state(String pool) {
    for (PoolAttributes state : states) {
      if (state.pool().equals(pool)) {
        return state;
      }
    }
    throw new IllegalArgumentException("no pool '" + pool + "' in this update");
  }
}
