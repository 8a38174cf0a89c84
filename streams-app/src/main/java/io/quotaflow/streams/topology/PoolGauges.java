package io.quotaflow.streams.topology;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.quotaflow.streams.engine.pools.PoolAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * Each pool's attributes as the pool processor last published them on {@code pool-state}, one
 * series per pool in force: a deleted pool's series go with the update that no longer covers it,
 * and all go when this instance loses the pool processor's partition (another one shows them).
 */
final class PoolGauges {

  private final List<Family> families;
  /** Replaced whole by the stream thread, read by the scrape's: the rows look their value up here. */
  private volatile Map<String, PoolAttributes> shown = Map.of();

  PoolGauges(MeterRegistry meters) {
    families = List.of(
        new Family(meters, "quotaflow.streams.pool.volume.cpu.seconds",
            "Accumulated resource volume V of the pool (accumulated_resource_volume_cpu), cpu-seconds",
            PoolAttributes::accumulatedResourceVolumeCpu),
        new Family(meters, "quotaflow.streams.pool.fair.share.cpu",
            "Total fair share of the pool this period (fair_share_cpu), cores", PoolAttributes::fairShareCpu),
        new Family(meters, "quotaflow.streams.pool.usage.cpu",
            "Sum of the soft limits of the pool's live tasks (usage_cpu), cores", PoolAttributes::usageCpu));
  }

  /** Shows exactly these pools: series of pools not among them are removed. */
  void show(Collection<PoolAttributes> states) {
    Map<String, PoolAttributes> next = new TreeMap<>();
    states.forEach(s -> next.put(s.pool(), s));
    boolean samePools = next.keySet().equals(shown.keySet());
    shown = Map.copyOf(next);
    if (!samePools) {
      families.forEach(f -> f.rows(next.keySet()));
    }
  }

  private double value(String pool, ToDoubleFunction<PoolAttributes> attribute) {
    PoolAttributes state = shown.get(pool);
    // NaN: scraped between the map's replacement and the rows' removal.
    return state == null ? Double.NaN : attribute.applyAsDouble(state);
  }

  private final class Family {
    private final MultiGauge gauge;
    private final ToDoubleFunction<PoolAttributes> attribute;

    Family(MeterRegistry meters, String name, String description, ToDoubleFunction<PoolAttributes> attribute) {
      this.gauge = MultiGauge.builder(name).description(description).register(meters);
      this.attribute = attribute;
    }

    void rows(Collection<String> pools) {
      List<MultiGauge.Row<?>> rows = new ArrayList<>();
      for (String pool : pools) {
        rows.add(MultiGauge.Row.of(Tags.of("pool", pool), PoolGauges.this, g -> g.value(pool, attribute)));
      }
      gauge.register(rows, false);
    }
  }
}
