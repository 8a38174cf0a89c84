package io.quotaflow.streams.topology;

import static io.quotaflow.streams.topology.TopologyHarness.T0;
import static io.quotaflow.streams.topology.TopologyHarness.memorySample;
import static io.quotaflow.streams.topology.TopologyHarness.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.PeakGatingMode;
import io.quotaflow.schemas.avro.SampleState;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** DESIGN §4 in the running topology: freeze decisions from samples, specs, node statuses and the cluster config. */
class PeakGateTopologyTest {

  private static final long MB = 1L << 20;
  private static final long NORMAL = 100 * MB;
  /** Above 1.1 x normal: approaching the peak. */
  private static final long PEAK = 120 * MB;

  private final TopologyHarness h = new TopologyHarness();
  /** Each task's current anonymous memory, sampled together once a second by {@link #tick}. */
  private final Map<String, Long> usage = new TreeMap<>();
  private long now = T0;

  @AfterEach
  void close() {
    h.close();
  }

  private void batchTask(String task, Long normalBytes) {
    h.pipeSpec(spec("n1", task, 1).setOperation("etl").setMemoryNormalBytes(normalBytes).build(), now);
    usage.put(task, NORMAL);
  }

  private void cluster(ClusterConfig.Builder config, long tsMs) {
    h.cluster.pipeInput("cluster", config.setCluster("cluster").build(), tsMs);
  }

  /** One second later, a sample of every task of n1 at its current usage. */
  private List<FreezeDecision> tick() {
    now += 1000;
    usage.forEach((task, bytes) -> h.pipeSample(memorySample("n1", task, now, bytes)));
    return freezes();
  }

  private List<FreezeDecision> ticks(int count) {
    List<FreezeDecision> all = new java.util.ArrayList<>();
    for (int i = 0; i < count; i++) {
      all.addAll(tick());
    }
    return all;
  }

  private List<FreezeDecision> set(String task, long bytes) {
    usage.put(task, bytes);
    return tick();
  }

  private List<FreezeDecision> freezes() {
    return h.drainFreezes().stream().map(TestRecord::value).toList();
  }

  private static String describe(FreezeDecision d) {
    return d.getTask() + " " + d.getAction() + " " + d.getReason()
        + (d.getQueuePosition() == null ? "" : " #" + d.getQueuePosition());
  }

  private static List<String> described(List<FreezeDecision> decisions) {
    return decisions.stream().map(PeakGateTopologyTest::describe).toList();
  }

  @Test
  void secondAndThirdPeaksWaitFrozenAndAreThawedInFifoOrderAsTheSlotFrees() {
    batchTask("a", NORMAL);
    batchTask("b", NORMAL);
    batchTask("c", NORMAL);
    assertThat(ticks(3)).isEmpty();

    assertThat(set("a", PEAK)).as("the first peak takes the one slot").isEmpty();
    List<FreezeDecision> b = set("b", PEAK);
    assertThat(described(b)).containsExactly("b FREEZE PEAK_SLOT_BUSY #0");
    assertThat(b.get(0).getLeaseMs()).isEqualTo(180_000L);
    assertThat(b.get(0).getTsMs()).isEqualTo(now);
    assertThat(described(set("c", PEAK))).containsExactly("c FREEZE PEAK_SLOT_BUSY #1");
    assertThat(ticks(5)).as("nothing changes while the holder stays at its peak").isEmpty();

    assertThat(described(set("a", NORMAL))).containsExactly("b THAW SLOT_FREED");
    assertThat(described(set("b", NORMAL))).containsExactly("c THAW SLOT_FREED");
  }

  @Test
  void theGateGaugesFollowHoldersAndTheQueueAndAHeadsWaitGrowsWithEverySample() {
    PrometheusMeterRegistry meters = OpsServer.newRegistry("streams");
    try (TopologyHarness metered = new TopologyHarness(new MeteredProbe(meters))) {
      Map<String, Long> bytes = new TreeMap<>(Map.of("a", NORMAL, "b", NORMAL, "c", NORMAL));
      bytes.keySet().forEach(task ->
          metered.pipeSpec(spec("n1", task, 1).setOperation("etl").setMemoryNormalBytes(NORMAL).build(), now));
      Runnable tick = () -> {
        now += 1000;
        bytes.forEach((task, b) -> metered.pipeSample(memorySample("n1", task, now, b)));
      };
      for (int i = 0; i < 3; i++) {
        tick.run();
      }
      assertThat(gateGauges(meters)).as("holders, waiting, head wait s").containsExactly(0.0, 0.0, 0.0);

      bytes.put("a", PEAK);
      tick.run();
      assertThat(gateGauges(meters)).containsExactly(1.0, 0.0, 0.0);
      tick.run();
      assertThat(gateGauges(meters)).as("steady: nothing moves").containsExactly(1.0, 0.0, 0.0);

      bytes.put("b", PEAK);
      tick.run();
      assertThat(gateGauges(meters)).as("b waits from this tick").containsExactly(1.0, 1.0, 0.0);
      tick.run();
      tick.run();
      assertThat(gateGauges(meters)).as("no change of role, but the head's wait grows").containsExactly(1.0, 1.0, 2.0);

      bytes.put("a", NORMAL);
      tick.run();
      assertThat(gateGauges(meters)).as("b thawed into the slot").containsExactly(1.0, 0.0, 0.0);
      bytes.put("b", NORMAL);
      tick.run();
      assertThat(gateGauges(meters)).containsExactly(0.0, 0.0, 0.0);
    }
  }

  private static List<Double> gateGauges(PrometheusMeterRegistry meters) {
    return List.of(meters.get("quotaflow.streams.gate.holders").gauge().value(),
        meters.get("quotaflow.streams.gate.waiting").gauge().value(),
        meters.get("quotaflow.streams.gate.head.wait").gauge().value());
  }

  @Test
  void freezeDecisionsAreKeyedByNodeAndTaskAndStampedWithTheSamplesTime() {
    batchTask("a", NORMAL);
    batchTask("b", NORMAL);
    set("a", PEAK);
    now += 1000;
    h.pipeSample(memorySample("n1", "b", now, PEAK));
    List<TestRecord<String, FreezeDecision>> raw = h.drainFreezes();
    assertThat(raw).extracting(TestRecord::key).containsExactly("n1/b");
    assertThat(raw.get(0).timestamp()).isEqualTo(now);
  }

  @Test
  void anonymousMemoryIsJudgedWhenKnownAndTheTotalOtherwise() {
    batchTask("a", NORMAL);
    batchTask("b", NORMAL);
    batchTask("c", NORMAL);
    tick();
    set("a", PEAK);
    // b: a large page cache on top of a normal anonymous size is no peak
    now += 1000;
    h.pipeSample(CgroupSample.newBuilder(memorySample("n1", "b", now, NORMAL)).setMemoryBytes(300 * MB).build());
    assertThat(freezes()).isEmpty();
    // c: no anonymous figure from the collector, so the total counts
    h.pipeSample(CgroupSample.newBuilder(memorySample("n1", "c", now, NORMAL)).setMemoryAnonBytes(null)
        .setMemoryBytes(PEAK).build());
    assertThat(described(freezes())).containsExactly("c FREEZE PEAK_SLOT_BUSY #0");
  }

  @Test
  void interactiveTasksHoldASlotButAreNeverFrozen() {
    h.pipeSpec(spec("n1", "shell", 1).setMemoryNormalBytes(NORMAL).setInteractive(true).build(), now);
    h.pipeSpec(spec("n1", "notebook", 1).setMemoryNormalBytes(NORMAL).setInteractive(true).build(), now);
    usage.put("shell", NORMAL);
    usage.put("notebook", NORMAL);
    batchTask("batch", NORMAL);
    tick();
    assertThat(set("shell", PEAK)).isEmpty();
    assertThat(described(set("batch", PEAK))).as("the interactive holder's slot is taken")
        .containsExactly("batch FREEZE PEAK_SLOT_BUSY #0");
    assertThat(set("notebook", PEAK)).as("a second interactive peak is never frozen").isEmpty();
    assertThat(set("shell", NORMAL)).as("notebook still holds a slot").isEmpty();
    assertThat(described(set("notebook", NORMAL))).containsExactly("batch THAW SLOT_FREED");
  }

  @Test
  void budgetAdmitsPeaksThatFitBesideTheOthersWithHeadroomAndAConfigChangeActsAtOnce() {
    h.nodes.pipeInput("n1", NodeStatus.newBuilder().setNode("n1").setTsMs(now).setMemoryTotalBytes(1000 * MB)
        .setCpus(2).setCgroupVersion(1).build(), now);
    cluster(ClusterConfig.newBuilder().setPeakGatingMode(PeakGatingMode.BUDGET).setMemoryHeadroomBytes(200 * MB), now);
    for (String task : List.of("a", "b", "c")) {
      h.pipeSpec(spec("n1", task, 1).setMemoryNormalBytes(NORMAL).setMemoryPeakBytes(400 * MB).build(), now);
      usage.put(task, NORMAL);
    }
    tick();
    assertThat(set("a", PEAK)).as("400 (a's peak) + 100 + 100 <= 800").isEmpty();
    assertThat(described(set("b", PEAK))).as("400 + 400 + 100 > 1000 - 200")
        .containsExactly("b FREEZE PEAK_OVER_BUDGET #0");

    now += 500;
    cluster(ClusterConfig.newBuilder().setPeakGatingMode(PeakGatingMode.BUDGET).setMemoryHeadroomBytes(0), now);
    List<FreezeDecision> thawed = freezes();
    assertThat(described(thawed)).as("900 fits in 1000 without headroom, admitted on the config itself")
        .containsExactly("b THAW SLOT_FREED");
    assertThat(thawed.get(0).getTsMs()).as("at the node's own time: its last sample's").isEqualTo(now - 500);
  }

  @Test
  void aGoneHolderFreesItsSlot() {
    batchTask("a", NORMAL);
    batchTask("b", NORMAL);
    set("a", PEAK);
    set("b", PEAK);
    usage.remove("a");
    now += 1000;
    h.pipeSample(CgroupSample.newBuilder(memorySample("n1", "a", now, 0)).setState(SampleState.GONE).build());
    assertThat(described(freezes())).containsExactly("b THAW SLOT_FREED");
  }

  @Test
  void aGoneTaskThatHadADecisionIsWithdrawnWithATombstoneAndOneThatHadNoneIsNot() {
    batchTask("a", NORMAL);
    batchTask("b", NORMAL);
    batchTask("c", NORMAL);
    set("a", PEAK);
    set("b", PEAK);
    set("c", PEAK);
    usage.remove("a");
    usage.remove("c");
    now += 1000;
    h.pipeSample(CgroupSample.newBuilder(memorySample("n1", "a", now, 0)).setState(SampleState.GONE).build());
    h.pipeSample(CgroupSample.newBuilder(memorySample("n1", "c", now, 0)).setState(SampleState.GONE).build());
    List<TestRecord<String, FreezeDecision>> out = h.drainFreezes();
    assertThat(out).extracting(TestRecord::key).containsExactly("n1/b", "n1/c");
    assertThat(describe(out.get(0).value())).isEqualTo("b THAW SLOT_FREED");
    assertThat(out.get(1).value()).as("c was frozen when it went: its FREEZE is withdrawn").isNull();
    usage.remove("b");
    now += 1000;
    h.pipeSample(CgroupSample.newBuilder(memorySample("n1", "b", now, 0)).setState(SampleState.GONE).build());
    assertThat(h.drainFreezes()).singleElement().satisfies(r -> {
      assertThat(r.key()).isEqualTo("n1/b");
      assertThat(r.value()).as("b's THAW is withdrawn too").isNull();
    });
  }

  @Test
  void aSilentHolderLosesItsSlotAfterTheIdleTimeoutOfItsNodesTime() {
    batchTask("a", NORMAL);
    batchTask("b", NORMAL);
    set("a", PEAK);
    set("b", PEAK);
    usage.remove("a"); // a sends nothing more; b, frozen, still does
    assertThat(ticks(59)).isEmpty();
    assertThat(described(tick())).containsExactly("b THAW SLOT_FREED");
  }

  @Test
  void aWaitingTasksLeaseIsRenewedWhileItWaits() {
    batchTask("a", NORMAL);
    batchTask("b", NORMAL);
    set("a", PEAK);
    set("b", PEAK);
    List<FreezeDecision> renewals = ticks(200);
    assertThat(described(renewals)).containsOnly("b FREEZE LEASE_RENEWAL #0").hasSize(3);
    assertGapsAtMostHalfALease(renewals, 180_000);
  }

  @Test
  void aSilentNodesWaitingTaskIsRenewedAndTimedOutByStreamTimeAlone() {
    cluster(ClusterConfig.newBuilder().setFreezeLeaseMs(30_000).setTaskIdleTimeoutMs(120_000), now);
    batchTask("a", NORMAL);
    batchTask("b", NORMAL);
    set("a", PEAK);
    List<FreezeDecision> frozen = set("b", PEAK);
    // n1 falls silent; another node's samples alone move the partition's stream time on
    List<FreezeDecision> seen = new java.util.ArrayList<>(frozen);
    for (int i = 0; i < 150; i++) {
      now += 1000;
      h.pipeSample(memorySample("n2", "other", now, NORMAL));
      seen.addAll(freezes());
    }
    List<FreezeDecision> renewals = seen.stream().filter(d -> d.getReason().equals("LEASE_RENEWAL")).toList();
    assertThat(renewals).hasSizeGreaterThanOrEqualTo(10);
    List<FreezeDecision> freezesOfB = seen.stream().filter(d -> d.getAction() == FreezeAction.FREEZE).toList();
    assertGapsAtMostHalfALease(freezesOfB, 30_000);
    assertThat(described(seen.subList(seen.size() - 1, seen.size()))).containsExactly("b THAW IDLE_TIMEOUT");
    FreezeDecision timeout = seen.get(seen.size() - 1);
    assertThat(timeout.getTsMs() - frozen.get(0).getTsMs()).isBetween(120_000L, 123_000L);
  }

  private static void assertGapsAtMostHalfALease(List<FreezeDecision> freezes, long leaseMs) {
    for (int i = 1; i < freezes.size(); i++) {
      assertThat(freezes.get(i).getTsMs() - freezes.get(i - 1).getTsMs()).isLessThanOrEqualTo(leaseMs / 2);
    }
  }

  @Test
  void switchingGatingOffThawsEveryWaitingTaskAtOnce() {
    batchTask("a", NORMAL);
    batchTask("b", NORMAL);
    batchTask("c", NORMAL);
    set("a", PEAK);
    set("b", PEAK);
    set("c", PEAK);
    now += 300;
    cluster(ClusterConfig.newBuilder().setPeakGatingMode(PeakGatingMode.OFF), now);
    List<FreezeDecision> thaws = freezes();
    assertThat(described(thaws)).containsExactlyInAnyOrder("b THAW GATING_OFF", "c THAW GATING_OFF");
    assertThat(thaws).allSatisfy(d -> assertThat(d.getTsMs()).isEqualTo(now - 300));
    usage.put("d", PEAK);
    assertThat(ticks(5)).as("nothing is gated while OFF").isEmpty();
  }

  /**
   * Tasks of the operation either start sampling once its profile is learned, or ran unprofiled all along: the
   * gate keeps a task's profile once looked up, so a profile learned later must still reach it.
   */
  @ParameterizedTest(name = "others running all along: {0}")
  @ValueSource(booleans = {false, true})
  void aTaskWithoutDeclaredNormalIsGatedByItsOperationsLearnedProfile(boolean othersRunAllAlong) {
    batchTask("x", null);
    batchTask("y", null);
    batchTask("z", null);
    usage.remove("y");
    usage.remove("z");
    if (othersRunAllAlong) {
      usage.put("y", 50 * MB);
      usage.put("z", 50 * MB);
    }
    // x runs at 80 MB for 10 s, peaks at 160 MB for 2 s, then finishes
    usage.put("x", 80 * MB);
    ticks(10);
    usage.put("x", 160 * MB);
    assertThat(ticks(2)).as("no normal known yet: never paused").isEmpty();
    usage.remove("x");
    now += 1000;
    h.pipeSample(CgroupSample.newBuilder(memorySample("n1", "x", now, 0)).setState(SampleState.GONE).build());
    // mean (10 x 80 + 2 x 160) / 12 = 93.3 MB becomes etl's normal; y and z cross 1.1 x that
    usage.put("y", 90 * MB);
    usage.put("z", 90 * MB);
    assertThat(tick()).isEmpty();
    assertThat(set("y", 110 * MB)).as("y holds the slot").isEmpty();
    assertThat(described(set("z", 110 * MB))).containsExactly("z FREEZE PEAK_SLOT_BUSY #0");
  }

  /**
   * Found by InputTopicsFuzzTest: the CPU processor refused a sample whose key its value disagrees
   * with, but the source still handed it to the peak gate, which froze the task the value named; a
   * sample both refused was dead-lettered twice.
   */
  @Test
  void aSampleTheChecksRefuseNeverReachesTheGateAndIsDeadLetteredOnce() {
    batchTask("a", NORMAL);
    batchTask("b", NORMAL);
    assertThat(ticks(2)).isEmpty();
    assertThat(set("a", PEAK)).as("a holds the one slot").isEmpty();
    h.samples.pipeInput("n1/other", memorySample("n1", "b", now, PEAK), now);
    h.samples.pipeInput("n1/..", memorySample("n1", "..", now, PEAK), now);
    assertThat(freezes()).as("b's peak came under another key: nothing to freeze").isEmpty();
    List<String> reasons = h.dlq.readRecordsToList().stream()
        .map(r -> new String(r.headers().lastHeader("__streams.errors.message").value(), StandardCharsets.UTF_8))
        .collect(Collectors.toList());
    assertThat(reasons).hasSize(2);
    assertThat(reasons.get(0)).contains("key n1/other does not match the value's node/task n1/b");
    assertThat(reasons.get(1)).contains("invalid task id '..'");
  }

  @Test
  void aGatingConfigThatCannotHoldIsRejectedAndTheLastGoodOneStays() {
    cluster(ClusterConfig.newBuilder().setPeakReleaseRatio(1.2).setPeakThresholdRatio(1.1), now);
    cluster(ClusterConfig.newBuilder().setFreezeLeaseMs(1_500), now);
    cluster(ClusterConfig.newBuilder().setPeakThresholdRatio(0), now);
    List<String> reasons = h.dlq.readRecordsToList().stream()
        .map(r -> new String(r.headers().lastHeader("__streams.errors.message").value(), StandardCharsets.UTF_8))
        .collect(Collectors.toList());
    assertThat(reasons).hasSize(3);
    assertThat(reasons.get(0)).contains("peak_release_ratio 1.2 is above peak_threshold_ratio 1.1");
    assertThat(reasons.get(1)).contains("freeze_lease_ms must be at least 2000");
    assertThat(reasons.get(2)).contains("peak_threshold_ratio must be in [1, 100], was 0");
    // the defaults are still in force: COUNT, one slot
    batchTask("a", NORMAL);
    batchTask("b", NORMAL);
    set("a", PEAK);
    assertThat(described(set("b", PEAK))).containsExactly("b FREEZE PEAK_SLOT_BUSY #0");
  }

  @Test
  void aFrozenTasksSamplesKeepItWaitingAndItsOwnCpuStateUnharmed() {
    batchTask("a", NORMAL);
    batchTask("b", NORMAL);
    set("a", PEAK);
    set("b", PEAK);
    // b's collector now reports it FROZEN: it still waits, nothing is published for it
    for (int i = 0; i < 10; i++) {
      now += 1000;
      h.pipeSample(memorySample("n1", "a", now, PEAK));
      h.pipeSample(CgroupSample.newBuilder(memorySample("n1", "b", now, PEAK)).setState(SampleState.FROZEN).build());
    }
    assertThat(freezes()).isEmpty();
    now += 1000;
    h.pipeSample(memorySample("n1", "a", now, NORMAL));
    assertThat(described(freezes())).containsExactly("b THAW SLOT_FREED");
  }
}
