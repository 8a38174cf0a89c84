package io.quotaflow.streams.topology;

import static io.quotaflow.streams.topology.TopologyHarness.T0;
import static io.quotaflow.streams.topology.TopologyHarness.sample;
import static io.quotaflow.streams.topology.TopologyHarness.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.JobCpuMonitorConfig;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import java.util.List;

class CpuTopologyTest {

  private final TopologyHarness h = new TopologyHarness();

  @AfterEach
  void close() {
    h.close();
  }

  private static JobCpuMonitorConfig reclaim() {
    return JobCpuMonitorConfig.newBuilder().setEnableCpuReclaim(true).build();
  }

  @Test
  void firstSampleOfATaskPublishesAnInitialDecision() {
    h.pipeSpec(spec("n1", "t1", 2).setJobCpuMonitor(reclaim()).build(), T0);
    assertThat(h.drain()).isEmpty();
    h.pipeSample(sample("n1", "t1", T0, 0));
    List<TestRecord<String, CpuDecision>> out = h.drain();
    assertThat(out).hasSize(1);
    CpuDecision d = out.get(0).value();
    assertThat(out.get(0).key()).isEqualTo("n1/t1");
    assertThat(d.getReason()).isEqualTo("INITIAL");
    assertThat(d.getHardLimitCpu()).isEqualTo(2.0);
    assertThat(d.getSoftLimitCpu()).isEqualTo(2.0);
    assertThat(d.getApply()).isTrue();
    assertThat(d.getCgroup().getShares()).isEqualTo(2000);
    assertThat(d.getCgroup().getQuotaUs()).isEqualTo(-1);
  }

  @Test
  void idleTaskWithReclaimIsDecreasedByTheDecreaseCoefficient() {
    h.pipeSpec(spec("n1", "t1", 2).setJobCpuMonitor(reclaim()).build(), T0);
    h.run("n1", "t1", T0, 0, 0.0, 1000, 12);
    List<TestRecord<String, CpuDecision>> out = h.drain();
    assertThat(out).extracting(r -> r.value().getReason()).containsExactly("INITIAL", "DECREASE");
    CpuDecision decrease = out.get(1).value();
    assertThat(decrease.getSoftLimitCpu()).isEqualTo(2 * 0.97);
    assertThat(decrease.getEffectiveLimitCpu()).isEqualTo(2 * 0.97);
    assertThat(decrease.getCgroup().getShares()).isEqualTo(1940);
    assertThat(decrease.getVotesSum()).isLessThan(-3);
    assertThat(decrease.getTsMs()).isEqualTo(out.get(1).timestamp());
  }

  @Test
  void saturatedTaskClimbsBackToTheHardLimit() {
    h.pipeSpec(spec("n1", "t1", 2).setJobCpuMonitor(reclaim()).build(), T0);
    long[] at = h.run("n1", "t1", T0, 0, 0.0, 1000, 12);
    h.drain();
    h.run("n1", "t1", at[0], at[1], 2.0, 1000, 60);
    List<CpuDecision> increases = h.drain().stream().map(TestRecord::value)
        .dropWhile(d -> !d.getReason().equals("INCREASE")).toList();
    // the smoothed usage needs a few ticks to rise, then each decision multiplies by 1.45 up to the hard limit
    assertThat(increases).extracting(CpuDecision::getReason).containsOnly("INCREASE");
    for (int i = 1; i < increases.size(); i++) {
      assertThat(increases.get(i).getSoftLimitCpu()).isEqualTo(Math.min(2.0, increases.get(i - 1).getSoftLimitCpu() * 1.45));
    }
    assertThat(increases.get(increases.size() - 1).getSoftLimitCpu()).isEqualTo(2.0);
    assertThat(increases.get(increases.size() - 1).getCgroup().getShares()).isEqualTo(2000);
  }

  @Test
  void withReclaimOffTheSoftLimitMovesButTheCgroupKeepsTheHardLimit() {
    h.pipeSpec(spec("n1", "t1", 2).build(), T0);
    h.run("n1", "t1", T0, 0, 0.0, 1000, 12);
    List<TestRecord<String, CpuDecision>> out = h.drain();
    assertThat(out).extracting(r -> r.value().getReason()).containsExactly("INITIAL/RECLAIM_OFF", "DECREASE/RECLAIM_OFF");
    CpuDecision decrease = out.get(1).value();
    assertThat(decrease.getSoftLimitCpu()).isEqualTo(1.94);
    assertThat(decrease.getCgroup().getShares()).isEqualTo(2000);
    assertThat(decrease.getApply()).isTrue();
  }

  @Test
  void aLowerCpuLimitClampsTheSoftLimitAtOnce() {
    h.pipeSpec(spec("n1", "t1", 2).setJobCpuMonitor(reclaim()).build(), T0);
    h.run("n1", "t1", T0, 0, 2.0, 1000, 3);
    h.drain();
    h.pipeSpec(spec("n1", "t1", 2).setCpuLimit(1.5).setJobCpuMonitor(reclaim()).build(), T0 + 3500);
    List<TestRecord<String, CpuDecision>> out = h.drain();
    assertThat(out).hasSize(1);
    assertThat(out.get(0).value().getReason()).isEqualTo("SPEC_CHANGED");
    assertThat(out.get(0).value().getHardLimitCpu()).isEqualTo(1.5);
    assertThat(out.get(0).value().getSoftLimitCpu()).isEqualTo(1.5);
    // the same spec again changes nothing an enforcer would see: no decision
    h.pipeSpec(spec("n1", "t1", 2).setCpuLimit(1.5).setJobCpuMonitor(reclaim()).build(), T0 + 3600);
    assertThat(h.drain()).isEmpty();
  }

  @Test
  void zeroCpuTaskIsWeightlessWithASmallQuotaAndNeverMonitored() {
    h.pipeSpec(spec("n1", "z", 0).setJobCpuMonitor(reclaim()).build(), T0);
    h.run("n1", "z", T0, 0, 0.0, 1000, 20);
    List<TestRecord<String, CpuDecision>> out = h.drain();
    assertThat(out).hasSize(1);
    CpuDecision d = out.get(0).value();
    assertThat(d.getReason()).isEqualTo("INITIAL");
    assertThat(d.getCgroup().getShares()).isEqualTo(2);
    assertThat(d.getCgroup().getWeight()).isEqualTo(1);
    assertThat(d.getCgroup().getQuotaUs()).isEqualTo(20_600); // ceil(100000 x 0.2 x 1.03)
    assertThat(d.getCgroup().getPeriodUs()).isEqualTo(100_000);
  }

  @Test
  void taskWithoutSpecIsObservedOnlyWithTheHardLimitFromItsQuotaOrTheNode() {
    h.nodes.pipeInput("n1", io.quotaflow.schemas.avro.NodeStatus.newBuilder().setNode("n1").setTsMs(T0)
        .setMemoryTotalBytes(1L << 34).setCpus(8).setThreadsPerCore(2).setCgroupVersion(1).build(), T0);
    h.pipeSample(sample("n1", "free", T0, 0));
    h.pipeSample(io.quotaflow.schemas.avro.CgroupSample.newBuilder(sample("n1", "quota", T0, 0)).setCpuQuotaCores(1.5).build());
    List<TestRecord<String, CpuDecision>> out = h.drain();
    assertThat(out).extracting(r -> r.value().getApply()).containsOnly(false);
    assertThat(out).extracting(r -> r.value().getReason()).containsOnly("INITIAL/NO_SPEC");
    assertThat(out).extracting(r -> r.value().getHardLimitCpu()).containsExactly(8.0, 1.5);
  }

  @Test
  void goneSampleWithdrawsTheDecision() {
    h.pipeSpec(spec("n1", "t1", 1).build(), T0);
    h.pipeSample(sample("n1", "t1", T0, 0));
    h.pipeSample(io.quotaflow.schemas.avro.CgroupSample.newBuilder(sample("n1", "t1", T0 + 1000, 500))
        .setState(io.quotaflow.schemas.avro.SampleState.GONE).build());
    List<TestRecord<String, CpuDecision>> out = h.drain();
    assertThat(out).hasSize(2);
    assertThat(out.get(1).key()).isEqualTo("n1/t1");
    assertThat(out.get(1).value()).isNull();
  }

  @Test
  void silentTaskIsWithdrawnAfterTheIdleTimeoutAndStartsAnewWhenItReturns() {
    h.pipeSpec(spec("n1", "quiet", 1).build(), T0);
    h.pipeSample(sample("n1", "quiet", T0, 0));
    h.run("n1", "busy", T0, 0, 1.0, 1000, 100); // another task's samples move time on
    List<TestRecord<String, CpuDecision>> out = h.drain();
    assertThat(out).filteredOn(r -> r.key().equals("n1/quiet")).extracting(TestRecord::value)
        .hasSize(2).last().isNull();
    h.pipeSample(sample("n1", "quiet", T0 + 100_000, 1_000));
    List<TestRecord<String, CpuDecision>> back = h.drain();
    assertThat(back).singleElement().satisfies(r -> {
      assertThat(r.key()).isEqualTo("n1/quiet");
      assertThat(r.value().getReason()).isEqualTo("INITIAL/RECLAIM_OFF");
      assertThat(r.value().getApply()).isTrue(); // the spec was kept
    });
  }

  @Test
  void aTaskReturningAfterTheTimeoutIsWithdrawnThenStartsAnewEvenWithoutASweep() {
    h.pipeSpec(spec("n1", "t1", 1).build(), T0);
    h.pipeSample(sample("n1", "t1", T0, 0));
    h.pipeSample(sample("n1", "t1", T0 + 61_000, 0));
    List<TestRecord<String, CpuDecision>> out = h.drain();
    assertThat(out).extracting(r -> r.value() == null ? "tombstone" : r.value().getReason())
        .containsExactly("INITIAL/RECLAIM_OFF", "tombstone", "INITIAL/RECLAIM_OFF");
  }

  @Test
  void aTaskFrozenForTwoMinutesKeepsItsSoftLimit() {
    h.pipeSpec(spec("n1", "t1", 2).setJobCpuMonitor(reclaim()).build(), T0);
    // 1.5 of 2 cores: the ratio 0.75 votes to keep the limit
    long[] at = h.run("n1", "t1", T0, 0, 1.5, 1000, 20);
    assertThat(h.drain()).extracting(r -> r.value().getReason()).containsExactly("INITIAL");
    long ts = at[0];
    for (int i = 0; i < 120; i++, ts += 1000) {
      h.pipeSample(io.quotaflow.schemas.avro.CgroupSample.newBuilder(sample("n1", "t1", ts, at[1]))
          .setState(io.quotaflow.schemas.avro.SampleState.FROZEN).build());
    }
    h.run("n1", "t1", ts, at[1], 1.5, 1000, 20);
    assertThat(h.drain()).as("two minutes without CPU while frozen cost no soft limit").isEmpty();
  }

  @Test
  void aLateSampleIsDroppedWithoutADecision() {
    h.pipeSpec(spec("n1", "t1", 2).setJobCpuMonitor(reclaim()).build(), T0);
    h.run("n1", "t1", T0, 0, 0.0, 1000, 3);
    h.drain();
    h.pipeSample(sample("n1", "t1", T0 + 500, 0));
    assertThat(h.drain()).isEmpty();
    assertThat(h.dlq.readRecordsToList()).isEmpty();
  }

  @Test
  void newClusterConfigRepublishesTasksItChanges() {
    h.pipeSpec(spec("n1", "t1", 2).build(), T0);
    h.pipeSample(sample("n1", "t1", T0, 0));
    h.drain();
    h.cluster.pipeInput("main", io.quotaflow.schemas.avro.ClusterConfig.newBuilder().setCluster("main")
        .setEnforcePerPeriodQuota(true).build(), T0 + 100);
    List<TestRecord<String, CpuDecision>> out = h.drain();
    assertThat(out).singleElement().satisfies(r -> {
      assertThat(r.value().getReason()).isEqualTo("CONFIG_CHANGED/RECLAIM_OFF");
      assertThat(r.value().getCgroup().getQuotaUs()).isEqualTo(206_000); // ceil(100000 x 2 x 1.03)
    });
  }

  @Test
  void anInvalidClusterConfigGoesToTheDlqAndTheLastGoodOneStays() {
    h.pipeSpec(spec("n1", "t1", 2).build(), T0);
    h.cluster.pipeInput("main", io.quotaflow.schemas.avro.ClusterConfig.newBuilder().setCluster("main")
        .setEnforcePerPeriodQuota(true).build(), T0);
    h.cluster.pipeInput("main", io.quotaflow.schemas.avro.ClusterConfig.newBuilder().setCluster("main")
        .setCfsPeriodUs(10).build(), T0 + 1);
    assertThat(h.dlq.readRecordsToList()).singleElement().satisfies(r ->
        assertThat(new String(r.headers().lastHeader("__streams.errors.message").value()))
            .contains("cfs_period_us must be in [1000, 1000000], was 10"));
    h.pipeSample(sample("n1", "t1", T0 + 2, 0));
    assertThat(h.drain()).singleElement().satisfies(r -> assertThat(r.value().getCgroup().getQuotaUs()).isEqualTo(206_000));
  }

  @Test
  void badSamplesGoToTheDlqAndProcessingContinues() {
    h.samples.pipeInput("n1/../x", sample("n1", "x", T0, 0), T0);
    h.samples.pipeInput("n1/t1", sample("n1", "other", T0, 0), T0);
    h.pipeSample(sample("n1", "t1", T0, -5));
    h.pipeSample(io.quotaflow.schemas.avro.CgroupSample.newBuilder(sample("n1", "t1", T0, 0)).setCpuQuotaCores(Double.NaN).build());
    h.samples.pipeInput("n1/t1", sample("n1", "t1", T0, 0), T0 + 6 * 60_000);
    h.pipeSample(sample("n1", "ok", T0, 0));
    List<String> reasons = h.dlq.readRecordsToList().stream()
        .map(r -> new String(r.headers().lastHeader("__streams.errors.message").value())).toList();
    assertThat(reasons).hasSize(5);
    assertThat(reasons.get(0)).contains("invalid task id '../x': it starts with a dot");
    assertThat(reasons.get(1)).contains("does not match the value's node/task n1/other");
    assertThat(reasons.get(2)).contains("cpu_usage_usec must not be negative");
    assertThat(reasons.get(3)).contains("cpu_quota_cores must be null or a positive finite number, was NaN");
    assertThat(reasons.get(4)).contains("clock skew");
    assertThat(h.drain()).extracting(TestRecord::key).containsExactly("n1/ok");
  }
}
