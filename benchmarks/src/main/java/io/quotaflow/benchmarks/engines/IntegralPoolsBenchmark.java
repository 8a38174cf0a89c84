package io.quotaflow.benchmarks.engines;

import io.quotaflow.streams.engine.pools.IntegralPools;
import io.quotaflow.streams.engine.pools.PoolClusterSettings;
import io.quotaflow.streams.engine.pools.PoolLoad;
import io.quotaflow.streams.engine.pools.PoolSpec;
import io.quotaflow.streams.engine.pools.PoolVolumeState;
import io.quotaflow.streams.engine.pools.PoolsPeriod;
import io.quotaflow.streams.engine.pools.PoolsUpdate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One fair-share update, {@link IntegralPools#update}: the call PoolUpdater makes once per
 * fair_share_update_period_ms (1 s by default) for the whole cluster, not per sample. The engine
 * sees each pool's summed load, so the number of tasks does not enter it; the unit is one update
 * of all {@code pools} pools. Pools are a quarter each burst, relaxed, strong-guaranteed and
 * weight-only, on a 10,000-core cluster; 64 precomputed load sets (demand 0-2x an equal share)
 * are cycled, and each update takes the volumes the previous one returned, as PoolUpdater does.
 * Building the {@link PoolsPeriod} from them is measured, its inputs are not.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class IntegralPoolsBenchmark {

  private static final double CLUSTER_CPU = 10_000;
  private static final long PERIOD_MS = 1_000;
  private static final int LOAD_SETS = 64;

  @Param({"10", "100"})
  public int pools;

  private final IntegralPools engine = new IntegralPools();
  private final PoolClusterSettings cluster = PoolClusterSettings.defaults(CLUSTER_CPU);
  private List<PoolSpec> specs;
  private List<Map<String, PoolLoad>> loads;
  private Map<String, PoolVolumeState> volumes;
  private long period;

  @Setup
  public void setUp() {
    SplittableRandom random = new SplittableRandom(20);
    double equalShareCpu = CLUSTER_CPU / pools;
    specs = new ArrayList<>(pools);
    for (int i = 0; i < pools; i++) {
      String pool = String.format(Locale.ROOT, "pool-%03d", i);
      specs.add(switch (i % 4) {
        case 0 -> PoolSpec.burst(pool, equalShareCpu / 4, equalShareCpu);
        case 1 -> PoolSpec.relaxed(pool, equalShareCpu / 4);
        case 2 -> PoolSpec.of(pool).withStrongGuaranteeCpu(equalShareCpu / 4);
        default -> PoolSpec.of(pool).withWeight(1 + i % 3);
      });
    }
    loads = new ArrayList<>(LOAD_SETS);
    for (int s = 0; s < LOAD_SETS; s++) {
      Map<String, PoolLoad> set = new HashMap<>();
      for (PoolSpec spec : specs) {
        double demandCpu = equalShareCpu * random.nextDouble(0, 2);
        set.put(spec.pool(), new PoolLoad(demandCpu, demandCpu * random.nextDouble(0.5, 1)));
      }
      loads.add(Map.copyOf(set));
    }
    volumes = Map.of();
  }

  /** One update of every pool, carrying the volumes on to the next. */
  @Benchmark
  public PoolsUpdate update() {
    period++;
    PoolsUpdate update = engine.update(new PoolsPeriod(period * PERIOD_MS, cluster, specs,
        loads.get((int) (period % LOAD_SETS)), volumes));
    volumes = update.volumes();
    return update;
  }
}
