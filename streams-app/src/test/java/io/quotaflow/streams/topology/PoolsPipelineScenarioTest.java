package io.quotaflow.streams.topology;

import static io.quotaflow.streams.topology.TopologyHarness.T0;
import static io.quotaflow.streams.topology.TopologyHarness.sample;
import static io.quotaflow.streams.topology.TopologyHarness.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.GuaranteeType;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.PoolState;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.streams.engine.pools.IntegralPools;
import io.quotaflow.streams.engine.pools.PoolLoad;
import io.quotaflow.streams.engine.pools.PoolSpec;
import io.quotaflow.streams.engine.pools.PoolVolumeState;
import io.quotaflow.streams.engine.pools.PoolsPeriod;
import io.quotaflow.streams.engine.pools.PoolsUpdate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Seed 003's scenario, scaled down to run in seconds, through the real topology: a burst pool that
 * saves volume while idle and spends it when its tasks start, a relaxed pool, and a pool of plain
 * weight, on three nodes of a 10-core cluster. Every pool-state record the pipeline publishes must be
 * what {@link IntegralPools} gives when fed the same demands period by period, as {@code bench pools} feeds it.
 */
class PoolsPipelineScenarioTest {

  private static final double TOTAL_CPU = 10;
  private static final int SECONDS = 240;
  /** Production's three 2-core tasks start here, after two minutes of saving volume. */
  private static final int PROD_START_S = 120;
  private static final int PROD_END_S = 200;

  private final TopologyHarness h = new TopologyHarness();
  private final TestOutputTopic<String, PoolState> poolState = h.offlineOutput(h.topics.poolState());

  @AfterEach
  void close() {
    h.close();
  }

  /** Which pool each task is in and its hard limit (reclaim off: it reports its hard limit). */
  private record Task(String node, String task, String pool, double cpus, int fromS, int toS) {}

  private static final List<Task> TASKS = List.of(
      new Task("n1", "prod-1", "prod", 2, PROD_START_S, PROD_END_S),
      new Task("n2", "prod-2", "prod", 2, PROD_START_S, PROD_END_S),
      new Task("n3", "prod-3", "prod", 2, PROD_START_S, PROD_END_S),
      new Task("n1", "research-1", "research", 3, 0, SECONDS),
      new Task("n2", "research-2", "research", 3, 0, SECONDS),
      new Task("n3", "batch-1", "batch", 4, 0, SECONDS),
      new Task("n1", "batch-2", "batch", 4, 0, SECONDS));

  private static final List<PoolSpec> POOLS = List.of(
      PoolSpec.burst("prod", 2, 6),
      PoolSpec.relaxed("research", 2),
      PoolSpec.of("batch"));

  @Test
  void poolStateFromThePipelineIsTheEnginesForTheSameDemands() {
    long configMs = T0 - 1000;
    h.cluster.pipeInput("main", ClusterConfig.newBuilder().setCluster("main").setTotalCpu(TOTAL_CPU).build(), configMs);
    h.pools.pipeInput("prod", PoolConfig.newBuilder().setPool("prod").setGuaranteeType(GuaranteeType.BURST)
        .setResourceFlowCpu(2).setBurstGuaranteeCpu(6).build(), configMs);
    h.pools.pipeInput("research", PoolConfig.newBuilder().setPool("research").setGuaranteeType(GuaranteeType.RELAXED)
        .setResourceFlowCpu(2).build(), configMs);
    h.pools.pipeInput("batch", PoolConfig.newBuilder().setPool("batch").build(), configMs);
    for (Task t : TASKS) {
      h.pipeSpec(spec(t.node(), t.task(), t.cpus()).setPool(t.pool()).build(), configMs);
    }
    // A sample of every live task in the middle of each second; a task's last second brings its GONE sample.
    for (int s = 0; s < SECONDS; s++) {
      for (Task t : TASKS) {
        if (s < t.fromS() || s > t.toS()) {
          continue;
        }
        CgroupSample sample = sample(t.node(), t.task(), T0 + s * 1000L + 500, s * 1_000_000L);
        h.pipeSample(s == t.toS() ? CgroupSample.newBuilder(sample).setState(SampleState.GONE).build() : sample);
      }
    }
    List<TestRecord<String, PoolState>> published = poolState.readRecordsToList();
    Map<Long, Map<String, PoolState>> byTime = new TreeMap<>();
    published.forEach(r -> byTime.computeIfAbsent(r.value().getTsMs(), k -> new TreeMap<>()).put(r.key(), r.value()));
    assertThat(byTime).hasSizeGreaterThan(SECONDS - 5);

    IntegralPools engine = new IntegralPools();
    Map<String, PoolVolumeState> volumes = new HashMap<>();
    for (Map.Entry<Long, Map<String, PoolState>> period : byTime.entrySet()) {
      long endMs = period.getKey();
      int second = (int) ((endMs - T0) / 1000) - 1; // the period [T0 + s s, T0 + (s + 1) s) ends at endMs
      PoolsUpdate expected = engine.update(new PoolsPeriod(endMs,
          io.quotaflow.streams.engine.pools.PoolClusterSettings.defaults(TOTAL_CPU), POOLS, demandsIn(second), volumes));
      volumes = new HashMap<>(expected.volumes());
      List<PoolState> expectedStates = new ArrayList<>();
      expected.states().forEach(s -> expectedStates.add(PoolRecords.state(s)));
      assertThat(period.getValue().values()).as("pool-state at " + second + " s").containsExactlyElementsOf(expectedStates);
    }
    PoolState prodWhileBursting = byTime.get(T0 + (PROD_START_S + 5) * 1000L).get("prod");
    assertThat(prodWhileBursting.getIntegralCpu()).as("the saved volume buys production burst CPU").isGreaterThan(1.0);
    assertThat(prodWhileBursting.getAccumulatedResourceVolumeCpu()).isGreaterThan(0);
  }

  /** Σ hard limits per pool of the tasks live in second {@code s} (first sample at or before it, GONE after it). */
  private static Map<String, PoolLoad> demandsIn(int s) {
    Map<String, Double> cpus = new TreeMap<>();
    for (Task t : TASKS) {
      if (s >= t.fromS() && s < t.toS()) {
        cpus.merge(t.pool(), t.cpus(), Double::sum);
      }
    }
    Map<String, PoolLoad> loads = new TreeMap<>();
    cpus.forEach((pool, c) -> loads.put(pool, PoolLoad.ofDemand(c)));
    return loads;
  }
}
