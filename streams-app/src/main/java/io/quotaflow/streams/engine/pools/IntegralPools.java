package io.quotaflow.streams.engine.pools;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One fair-share update of flat pools with YTsaurus integral guarantees (DESIGN §3), for a single
 * resource, CPU. In order: the volume tick of every integral pool; strong guarantees, scaled
 * together with burst guarantees when they overcommit the cluster; burst integral shares; relaxed
 * integral shares out of what strong and burst leave; the rest by weight.
 *
 * <p>Stateless: what a pool carries between updates is its {@link PoolVolumeState}, which comes in
 * with the {@link PoolsPeriod} and goes out with the {@link PoolsUpdate}. Shares are fractions of
 * the cluster's CPU T throughout, as in YTsaurus, and converted to cores only in the report.
 */
public final class IntegralPools {

  /** YTsaurus's LargeEpsilon: below it a burst ratio counts as no faster than the flow. */
  static final double BURST_ABOVE_FLOW_EPSILON = 1e-4;

  private static final double MS_PER_S = 1000.0;

  /** Runs one update; throws {@link InvalidPoolSpecException} when a configured pool is invalid. */
  public PoolsUpdate update(PoolsPeriod period) {
    // Pool order fixes the order of states and warnings, so equal inputs give equal outputs.
    List<PoolSpec> configured = new ArrayList<>(period.pools());
    configured.sort(Comparator.comparing(PoolSpec::pool));
    PoolSpecValidation.requireValid(configured);
    PoolClusterSettings cluster = period.cluster();
    List<String> warnings = new ArrayList<>(PoolSpecValidation.warnings(configured, cluster.totalCpu()));
    List<PoolSpec> specs = withEphemeralPools(configured, period.loads(), warnings);

    List<Pool> pools = new ArrayList<>(specs.size());
    for (PoolSpec spec : specs) {
      pools.add(new Pool(spec,
          period.loads().getOrDefault(spec.pool(), PoolLoad.IDLE),
          period.volumes().getOrDefault(spec.pool(), PoolVolumeState.INITIAL)));
    }
    double totalCpu = cluster.totalCpu();
    if (totalCpu > 0) {
      for (Pool pool : pools) {
        pool.measure(cluster, period.tsMs());
      }
      scaleStrongAndBurst(pools);
      grantBurst(pools);
      grantRelaxed(pools, cluster);
      shareRestByWeight(pools);
    }
    return report(period.tsMs(), totalCpu, pools, warnings);
  }

  /**
   * Tasks may name a pool nobody configured; like YTsaurus's ephemeral pools they still compete,
   * with weight 1 and no guarantees, so that they are capped under contention too.
   */
  private static List<PoolSpec> withEphemeralPools(
      List<PoolSpec> configured, Map<String, PoolLoad> loads, List<String> warnings) {
    Map<String, PoolSpec> byPool = new TreeMap<>();
    for (PoolSpec spec : configured) {
      byPool.put(spec.pool(), spec);
    }
    for (String pool : new TreeMap<>(loads).keySet()) {
      if (!byPool.containsKey(pool)) {
        byPool.put(pool, PoolSpec.of(pool));
        warnings.add("pool '" + pool + "' has tasks but no configuration: it shares as an ephemeral pool"
            + " (weight 1, no guarantees)");
      }
    }
    return new ArrayList<>(byPool.values());
  }

  /**
   * If strong plus burst guarantees exceed the cluster, both shrink by the largest factor x ≤ 1
   * that fits; flows are never scaled (an overcommitted flow only raises a warning).
   */
  private static void scaleStrongAndBurst(List<Pool> pools) {
    double committed = 0;
    for (Pool pool : pools) {
      committed += pool.strongShare + pool.burstShare;
    }
    if (committed <= 1.0) {
      return;
    }
    double scale = 1.0 / committed;
    for (Pool pool : pools) {
      pool.strongShare *= scale;
      pool.burstShare *= scale;
    }
  }

  /**
   * Burst pools take their integral share without regard to other pools: only their burst ratio,
   * the share their volume buys and what they demand above their strong guarantee bound it. The
   * overcommit scaling is what keeps strong plus burst within the cluster.
   */
  private static void grantBurst(List<Pool> pools) {
    for (Pool pool : pools) {
      if (pool.spec.guaranteeType() == GuaranteeType.BURST) {
        double proposed = Math.min(pool.burstShare, pool.shareByVolume);
        pool.integralShare = clampNonNegative(Math.min(proposed, pool.cappedDemandShare - pool.strongShare));
      }
    }
  }

  /**
   * Relaxed pools share what is left after every pool's demanded strong and burst shares, in
   * proportion to the share their volume buys, each capped at that share, at M times its flow and
   * at its demand above its strong guarantee. Unused strong guarantees are not held back, so a
   * relaxed pool may run on them (YTsaurus's deliberate overcommit at the root).
   */
  private static void grantRelaxed(List<Pool> pools, PoolClusterSettings cluster) {
    double committed = 0;
    for (Pool pool : pools) {
      committed += Math.min(pool.strongShare + pool.integralShare, pool.cappedDemandShare);
    }
    double available = Math.max(1.0 - committed, 0.0);
    List<Pool> relaxed = new ArrayList<>();
    for (Pool pool : pools) {
      // A relaxed pool without volume gets nothing and, unlike YTsaurus, is not skipped: skipping
      // would leave last period's grant in L and keep charging an empty bucket for it.
      if (pool.spec.guaranteeType() == GuaranteeType.RELAXED && pool.shareByVolume > 0) {
        relaxed.add(pool);
      }
    }
    double[] caps = new double[relaxed.size()];
    double[] weights = new double[relaxed.size()];
    for (int i = 0; i < relaxed.size(); i++) {
      Pool pool = relaxed.get(i);
      double multiplier = pool.spec.relaxedShareMultiplierLimit() != null
          ? pool.spec.relaxedShareMultiplierLimit()
          : cluster.relaxedShareMultiplierLimit();
      double cap = Math.min(pool.shareByVolume, multiplier * pool.flowShare);
      caps[i] = clampNonNegative(Math.min(cap, pool.cappedDemandShare - pool.strongShare));
      weights[i] = pool.shareByVolume;
    }
    double[] shares = WaterFill.fill(caps, weights, available);
    for (int i = 0; i < relaxed.size(); i++) {
      relaxed.get(i).integralShare = shares[i];
    }
  }

  /**
   * Guarantees are honoured first (each up to the pool's demand); what is left goes to the pools
   * that still demand more, in proportion to their weights, each up to its demand and limit.
   */
  private static void shareRestByWeight(List<Pool> pools) {
    double[] room = new double[pools.size()];
    double[] weights = new double[pools.size()];
    double guaranteed = 0;
    for (int i = 0; i < pools.size(); i++) {
      Pool pool = pools.get(i);
      pool.fairShare = Math.min(pool.strongShare + pool.integralShare, pool.cappedDemandShare);
      guaranteed += pool.fairShare;
      room[i] = pool.cappedDemandShare - pool.fairShare;
      weights[i] = pool.spec.weight();
    }
    double[] rest = WaterFill.fill(room, weights, Math.max(1.0 - guaranteed, 0.0));
    for (int i = 0; i < pools.size(); i++) {
      pools.get(i).fairShare += rest[i];
    }
  }

  private static PoolsUpdate report(long tsMs, double totalCpu, List<Pool> pools, List<String> warnings) {
    double demandCpu = 0;
    for (Pool pool : pools) {
      demandCpu += pool.load.demandCpu();
    }
    // With T = 0 nothing was shared; capping every task to a zero share would stop the cluster.
    boolean overcommitted = totalCpu > 0 && demandCpu > totalCpu;
    List<PoolAttributes> states = new ArrayList<>(pools.size());
    TreeMap<String, PoolVolumeState> volumes = new TreeMap<>();
    TreeMap<String, Double> caps = new TreeMap<>();
    for (Pool pool : pools) {
      String name = pool.spec.pool();
      double strong = Math.min(pool.fairShare, pool.strongShare);
      double integral = Math.min(pool.fairShare - strong, pool.integralShare);
      double ratioVolume = totalCpu > 0 ? pool.volumeCpu / totalCpu : 0.0;
      Double burstDurationS = pool.specifiedBurstShare > pool.flowShare + BURST_ABOVE_FLOW_EPSILON
          ? ratioVolume / (pool.specifiedBurstShare - pool.flowShare)
          : null;
      states.add(new PoolAttributes(name, tsMs,
          ratioVolume,
          pool.volumeCpu,
          pool.capacityS,
          pool.specifiedBurstShare,
          pool.flowShare,
          pool.burstShare,
          pool.flowShare,
          burstDurationS,
          pool.load.demandCpu(),
          pool.load.usageCpu(),
          strong * totalCpu,
          integral * totalCpu,
          pool.fairShare * totalCpu));
      volumes.put(name, new PoolVolumeState(pool.volumeCpu, pool.integralShare,
          pool.previous.lastUpdateMs() == null ? tsMs : Math.max(pool.previous.lastUpdateMs(), tsMs)));
      caps.put(name, PoolCaps.capRatio(pool.fairShare * totalCpu, pool.load.usageCpu(), overcommitted));
    }
    return new PoolsUpdate(tsMs, states, volumes, caps, overcommitted, warnings);
  }

  private static double clampNonNegative(double share) {
    return Math.max(share, 0.0);
  }

  /** One pool's working values during an update; shares are fractions of T. */
  private static final class Pool {
    final PoolSpec spec;
    final PoolLoad load;
    final PoolVolumeState previous;

    double flowShare;
    double specifiedBurstShare;
    double capacityS;
    /** Burst share after the overcommit scaling. */
    double burstShare;
    double strongShare;
    /** Demand share, capped by the pool's limit. */
    double cappedDemandShare;
    double volumeCpu;
    double shareByVolume;
    double integralShare;
    double fairShare;

    Pool(PoolSpec spec, PoolLoad load, PoolVolumeState previous) {
      this.spec = spec;
      this.load = load;
      this.previous = previous;
      // Until measured (T = 0) a pool keeps its volume and is granted nothing.
      this.volumeCpu = previous.accumulatedResourceVolumeCpu();
    }

    void measure(PoolClusterSettings cluster, long tsMs) {
      double totalCpu = cluster.totalCpu();
      GuaranteeType type = spec.guaranteeType();
      flowShare = type == GuaranteeType.NONE ? 0.0 : spec.resourceFlowCpu() / totalCpu;
      specifiedBurstShare = type == GuaranteeType.BURST ? spec.burstGuaranteeCpu() / totalCpu : 0.0;
      burstShare = specifiedBurstShare;
      capacityS = flowShare * cluster.poolCapacitySaturationPeriodS();
      double limitShare = spec.limitCpu() == null ? 1.0 : Math.min(1.0, spec.limitCpu() / totalCpu);
      strongShare = Math.min(spec.strongGuaranteeCpu() / totalCpu, limitShare);
      cappedDemandShare = Math.min(load.demandCpu() / totalCpu, limitShare);
      // Only integral pools tick (a pool switched to NONE keeps its volume frozen), and never on a
      // pool's first update: there is no previous time to measure the interval from.
      if (type != GuaranteeType.NONE && previous.lastUpdateMs() != null) {
        double elapsedS = Math.max(tsMs - previous.lastUpdateMs(), 0L) / MS_PER_S;
        volumeCpu = VolumeTick.next(volumeCpu, previous.lastIntegralShareRatio(), elapsedS,
            totalCpu, flowShare, capacityS);
      }
      shareByVolume = volumeCpu / totalCpu / cluster.smoothPeriodS();
    }
  }
}
