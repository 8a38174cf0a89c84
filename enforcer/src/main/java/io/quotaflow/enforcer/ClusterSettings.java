package io.quotaflow.enforcer;

import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.Enforcement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The cluster config in force, as the enforcer reads it from {@code cluster-config} itself: the
 * newest record whatever its key (one cluster, one config, as {@code quotaflow cluster} writes
 * it); a tombstone withdraws its key, and with no config left the schema defaults are in force
 * ({@code enforcement} ON), as in the streams app.
 *
 * <p>Only {@code enforcement} and {@code freeze_lease_ms} matter here. The kill switch is taken
 * from every record, even one the streams app rejects for another field: an enum cannot be
 * invalid, and stopping enforcement must not depend on, say, a bad CFS period next to it.
 */
public final class ClusterSettings {

  private static final ClusterConfig DEFAULTS = ClusterConfig.newBuilder().setCluster("").build();

  private final Map<String, ClusterConfig> byKey = new LinkedHashMap<>();

  /** A record of {@code cluster-config}; {@code config} null for a tombstone. */
  public void accept(String key, ClusterConfig config) {
    byKey.remove(key); // re-inserted last, so iteration order is the order of the latest writes
    if (config != null) {
      byKey.put(key, config);
    }
  }

  public Enforcement enforcement() {
    return newest().getEnforcement();
  }

  /** The lease of a FREEZE that carries none, ms. */
  public long freezeLeaseMs() {
    return newest().getFreezeLeaseMs();
  }

  private ClusterConfig newest() {
    ClusterConfig newest = DEFAULTS;
    for (ClusterConfig config : byKey.values()) {
      newest = config;
    }
    return newest;
  }
}
