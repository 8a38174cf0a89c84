package io.quotaflow.streams.topology;

import static io.quotaflow.streams.topology.TopologyHarness.T0;
import static io.quotaflow.streams.topology.TopologyHarness.sample;
import static io.quotaflow.streams.topology.TopologyHarness.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.GuaranteeType;
import io.quotaflow.schemas.avro.JobCpuMonitorConfig;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.PoolState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** DESIGN §3's dataflow offline: partials once a period, the pool processor, pool-state, caps back to the tasks. */
class PoolTopologyTest {

  private final TopologyHarness h = new TopologyHarness();
  private final TestOutputTopic<String, PoolState> poolState = h.offlineOutput(h.topics.poolState());
  /** Each task's CPU counter, usec. */
  private final Map<String, long[]> counters = new LinkedHashMap<>();
  private final Map<String, Double> cores = new LinkedHashMap<>();
  private long now = T0;

  @AfterEach
  void close() {
    h.close();
  }

  private void cluster(double totalCpu) {
    h.cluster.pipeInput("main", ClusterConfig.newBuilder().setCluster("main").setTotalCpu(totalCpu).build(), now);
  }

  private void task(String task, String pool, double cpuLimit, boolean reclaim, double usesCores) {
    h.pipeSpec(spec("n1", task, cpuLimit).setPool(pool)
        .setJobCpuMonitor(JobCpuMonitorConfig.newBuilder().setEnableCpuReclaim(reclaim).build()).build(), now);
    counters.put(task, new long[] {0});
    cores.put(task, usesCores);
  }

  /** {@code seconds} seconds of samples of every task, one a second. */
  private void run(int seconds) {
    for (int s = 0; s < seconds; s++) {
      for (Map.Entry<String, long[]> e : counters.entrySet()) {
        h.pipeSample(sample("n1", e.getKey(), now, e.getValue()[0]));
        e.getValue()[0] += Math.round(cores.get(e.getKey()) * 1_000_000);
      }
      now += 1000;
    }
  }

  private Map<String, PoolState> latestStates() {
    Map<String, PoolState> latest = new LinkedHashMap<>();
    poolState.readRecordsToList().forEach(r -> latest.put(r.key(), r.value()));
    return latest;
  }

  @Test
  void poolStateComesEveryPeriodWithDemandFromTheTasksReportedLimits() {
    cluster(16);
    h.pools.pipeInput("prod", PoolConfig.newBuilder().setPool("prod").setStrongGuaranteeCpu(2).build(), now);
    task("a", "prod", 4, false, 1.0);  // reclaim off: reports its hard limit, 4
    task("b", "prod", 2, true, 0.0);   // reclaim on and idle: reports its soft limit as it falls
    run(30);
    List<TestRecord<String, PoolState>> states = poolState.readRecordsToList();
    List<Long> times = states.stream().filter(r -> r.key().equals("prod")).map(r -> r.value().getTsMs()).toList();
    assertThat(times).hasSizeGreaterThanOrEqualTo(28);
    for (int i = 1; i < times.size(); i++) {
      assertThat(times.get(i) - times.get(i - 1)).isEqualTo(1000);
    }
    PoolState last = states.get(states.size() - 1).value();
    // The state of the period ending at ts_ms counts the decisions made before it
    double bSoft = h.drain().stream().filter(r -> r.key().equals("n1/b") && r.timestamp() < last.getTsMs())
        .reduce((first, second) -> second).orElseThrow().value().getSoftLimitCpu();
    assertThat(bSoft).isLessThan(2.0);
    assertThat(last.getDemandCpu()).isCloseTo(4 + bSoft, within(1e-6));
    assertThat(last.getUsageCpu()).isEqualTo(last.getDemandCpu());
    assertThat(last.getStrongCpu()).isCloseTo(2.0, within(1e-9));
  }

  @Test
  void underContentionAPoolBeyondItsFairShareIsCappedAtItsTasksNextTick() {
    cluster(2);
    h.pools.pipeInput("big", PoolConfig.newBuilder().setPool("big").build(), now);
    h.pools.pipeInput("small", PoolConfig.newBuilder().setPool("small").build(), now);
    task("b1", "big", 1.5, false, 1.5);
    task("b2", "big", 1.5, false, 1.5);
    task("s1", "small", 0.5, false, 0.5);
    run(10);
    Map<String, PoolState> states = latestStates();
    // 3.5 cores asked of 2: small gets its 0.5, big the remaining 1.5 of its 3
    assertThat(states.get("small").getFairShareCpu()).isCloseTo(0.5, within(1e-6));
    assertThat(states.get("big").getFairShareCpu()).isCloseTo(1.5, within(1e-6));
    List<CpuDecision> capped = h.drain().stream().map(TestRecord::value)
        .filter(d -> d.getReason().startsWith("POOL_CAP")).toList();
    assertThat(capped).extracting(CpuDecision::getTask).containsExactlyInAnyOrder("b1", "b2");
    assertThat(capped).allSatisfy(d -> {
      assertThat(d.getHardLimitCpu()).isEqualTo(1.5);
      assertThat(d.getEffectiveLimitCpu()).isCloseTo(0.75, within(1e-6)); // 1.5 x (1.5 / 3)
      assertThat(d.getCgroup().getShares()).isEqualTo(750);
      assertThat(d.getApply()).isTrue();
    });
    run(10);
    assertThat(h.drain()).as("a steady cap publishes nothing more").isEmpty();
  }

  @Test
  void whenContentionEndsTheCapLiftsAgain() {
    cluster(2);
    task("b1", "big", 1.5, false, 1.5);
    task("b2", "big", 1.5, false, 1.5);
    task("s1", "small", 1.0, false, 1.0);
    run(10);
    h.drain();
    h.cluster.pipeInput("main", ClusterConfig.newBuilder().setCluster("main").setTotalCpu(8.0).build(), now);
    run(5);
    List<CpuDecision> lifted = h.drain().stream().map(TestRecord::value)
        .filter(d -> d.getReason().startsWith("POOL_CAP")).toList();
    assertThat(lifted).as("s1 was within its pool's share all along").extracting(CpuDecision::getTask)
        .containsExactlyInAnyOrder("b1", "b2");
    assertThat(lifted).allSatisfy(d -> assertThat(d.getEffectiveLimitCpu()).isEqualTo(d.getHardLimitCpu()));
  }

  @Test
  void aBurstPoolSpendsItsVolumeAndPoolStateShowsIt() {
    cluster(4);
    h.pools.pipeInput("burst", PoolConfig.newBuilder().setPool("burst").setGuaranteeType(GuaranteeType.BURST)
        .setResourceFlowCpu(1).setBurstGuaranteeCpu(4).build(), now);
    h.pools.pipeInput("other", PoolConfig.newBuilder().setPool("other").setWeight(3).build(), now);
    task("o1", "other", 4, false, 4);
    task("x", "burst", 1, false, 0); // a small demand while the volume fills
    run(30);
    PoolState filled = latestStates().get("burst");
    assertThat(filled.getAccumulatedResourceVolumeCpu()).isGreaterThan(0);
    assertThat(filled.getEstimatedBurstUsageDurationSeconds()).isNotNull();
    assertThat(filled.getIntegralPoolCapacity()).isCloseTo(0.25 * 86_400, within(1e-6));
  }

  @Test
  void theLatestPoolStateOfEveryPoolInForceIsKeptForLiveQueries() {
    cluster(4);
    h.pools.pipeInput("prod", PoolConfig.newBuilder().setPool("prod").setStrongGuaranteeCpu(1).build(), now);
    h.pools.pipeInput("dev", PoolConfig.newBuilder().setPool("dev").build(), now);
    task("a", "prod", 1, false, 1.0);
    run(10);
    Map<String, PoolState> published = latestStates();
    assertThat(published).containsKeys("prod", "dev");
    org.apache.kafka.streams.state.KeyValueStore<String, PoolState> latest = h.store(Names.POOL_STATE_LATEST_STORE);
    assertThat(latest.get("prod")).isEqualTo(published.get("prod"));
    assertThat(latest.get("dev")).isEqualTo(published.get("dev"));

    h.pools.pipeInput("dev", null, now);
    run(5);
    assertThat(latest.get("dev")).as("a deleted pool leaves the live view").isNull();
    assertThat(latest.get("prod")).isEqualTo(latestStates().get("prod"));
  }

  @Test
  void eachPoolInForceHasItsPublishedAttributesOnMetricsUntilItIsDeletedOrThePartitionGoes() {
    PrometheusMeterRegistry meters = OpsServer.newRegistry("streams");
    TopologyHarness metered = new TopologyHarness(new MeteredProbe(meters));
    metered.cluster.pipeInput("main", ClusterConfig.newBuilder().setCluster("main").setTotalCpu(4.0).build(), now);
    metered.pools.pipeInput("prod", PoolConfig.newBuilder().setPool("prod").setGuaranteeType(GuaranteeType.BURST)
        .setResourceFlowCpu(1.0).setBurstGuaranteeCpu(2.0).build(), now);
    metered.pools.pipeInput("dev", PoolConfig.newBuilder().setPool("dev").build(), now);
    metered.pipeSpec(spec("n1", "a", 1).setPool("prod").build(), now);
    metered.run("n1", "a", now, 0, 1.0, 1000, 10);
    Map<String, PoolState> published = new LinkedHashMap<>();
    metered.offlineOutput(metered.topics.poolState()).readRecordsToList().forEach(r -> published.put(r.key(), r.value()));
    PoolState prod = published.get("prod");
    assertThat(prod.getUsageCpu()).as("a task of prod is live").isGreaterThan(0);
    assertThat(gauge(meters, "quotaflow.streams.pool.volume.cpu.seconds", "prod"))
        .isEqualTo(prod.getAccumulatedResourceVolumeCpu());
    assertThat(gauge(meters, "quotaflow.streams.pool.fair.share.cpu", "prod")).isEqualTo(prod.getFairShareCpu());
    assertThat(gauge(meters, "quotaflow.streams.pool.usage.cpu", "prod")).isEqualTo(prod.getUsageCpu());
    assertThat(gauge(meters, "quotaflow.streams.pool.usage.cpu", "dev")).isEqualTo(published.get("dev").getUsageCpu());
    assertThat(meters.scrape()).contains("quotaflow_streams_pool_volume_cpu_seconds{component=\"streams\",pool=\"prod\"}")
        .contains("quotaflow_streams_pool_fair_share_cpu{component=\"streams\",pool=\"dev\"}");

    metered.pools.pipeInput("dev", null, now + 10_000);
    metered.run("n1", "a", now + 10_000, 10_000_000, 1.0, 1000, 5);
    assertThat(meters.find("quotaflow.streams.pool.usage.cpu").tag("pool", "dev").gauges()).as("a deleted pool").isEmpty();
    assertThat(meters.find("quotaflow.streams.pool.usage.cpu").tag("pool", "prod").gauges()).hasSize(1);

    metered.close();
    assertThat(meters.find("quotaflow.streams.pool.volume.cpu.seconds").gauges())
        .as("the pool processor's task closed: the instance that opens it next shows the pools").isEmpty();
  }

  private static double gauge(PrometheusMeterRegistry meters, String name, String pool) {
    return meters.get(name).tag("pool", pool).gauge().value();
  }
}
