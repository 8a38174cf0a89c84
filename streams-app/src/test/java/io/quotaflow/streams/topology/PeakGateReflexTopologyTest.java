package io.quotaflow.streams.topology;

import static io.quotaflow.streams.topology.TopologyHarness.T0;
import static io.quotaflow.streams.topology.TopologyHarness.memorySample;
import static io.quotaflow.streams.topology.TopologyHarness.reflexFreeze;
import static io.quotaflow.streams.topology.TopologyHarness.result;
import static io.quotaflow.streams.topology.TopologyHarness.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.EnforcementHeaders;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.GateMode;
import io.quotaflow.schemas.avro.GateTable;
import io.quotaflow.schemas.avro.GateTaskRole;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.PeakGatingMode;
import io.quotaflow.schemas.avro.SampleState;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 21 in the running topology: the gate table each node's gate publishes on gate-tables, and
 * the gate's answer to the enforcer's reflex freezes read from enforcement-results (adopt or overrule).
 */
class PeakGateReflexTopologyTest {

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

  private void batchTask(String task) {
    h.pipeSpec(spec("n1", task, 1).setOperation("etl").setMemoryNormalBytes(NORMAL).build(), now);
    usage.put(task, NORMAL);
  }

  /** One second later, a sample of every task of n1 at its current usage. */
  private List<String> tick() {
    now += 1000;
    usage.forEach((task, bytes) -> h.pipeSample(memorySample("n1", task, now, bytes)));
    return freezes();
  }

  private List<String> set(String task, long bytes) {
    usage.put(task, bytes);
    return tick();
  }

  /** The reflex of n1's enforcer froze {@code task} {@code afterMs} after the last tick, reading {@code bytes}. */
  private List<String> reflex(String task, long afterMs, long bytes) {
    h.pipeResult(reflexFreeze("n1", task, now + afterMs, bytes));
    return freezes();
  }

  private List<String> freezes() {
    return h.drainFreezes().stream().map(r -> describe(r.value())).toList();
  }

  private static String describe(FreezeDecision d) {
    return d.getTask() + " " + d.getAction() + " " + d.getReason()
        + (d.getQueuePosition() == null ? "" : " #" + d.getQueuePosition());
  }

  private GateTable lastTable() {
    List<TestRecord<String, GateTable>> tables = h.drainTables();
    assertThat(tables).as("a gate table was published").isNotEmpty();
    return tables.get(tables.size() - 1).value();
  }

  private List<String> dlqReasons() {
    return h.dlq.readRecordsToList().stream()
        .map(r -> new String(r.headers().lastHeader("__streams.errors.message").value(), StandardCharsets.UTF_8))
        .toList();
  }

  @Test
  void aReflexFreezeWithNoFreeSlotIsAdoptedQueuedAtTheReflexTimeAndThawedInThatOrder() {
    batchTask("a");
    batchTask("b");
    batchTask("c");
    tick();
    assertThat(set("a", PEAK)).as("a takes the one slot").isEmpty();
    // b crosses 400 ms after that sample and the reflex freezes it; c's next sample shows it crossing too, and the
    // gate freezes c before b's result arrives.
    long bFrozenAtMs = now + 400;
    now += 1000;
    usage.put("c", PEAK);
    h.pipeSample(memorySample("n1", "c", now, PEAK));
    assertThat(freezes()).containsExactly("c FREEZE PEAK_SLOT_BUSY #0");
    h.pipeResult(reflexFreeze("n1", "b", bFrozenAtMs, 115 * MB));
    List<TestRecord<String, FreezeDecision>> adopted = h.drainFreezes();
    assertThat(adopted).singleElement().satisfies(r -> {
      assertThat(r.key()).isEqualTo("n1/b");
      assertThat(describe(r.value())).as("queued from its reflex time, ahead of c").isEqualTo("b FREEZE REFLEX_ADOPTED #0");
      assertThat(r.value().getLeaseMs()).as("the full lease").isEqualTo(180_000L);
      assertThat(r.value().getTsMs()).as("the gate's time").isEqualTo(now);
      assertThat(r.timestamp()).as("the result's record time, as a sample's").isEqualTo(bFrozenAtMs);
    });
    GateTable table = lastTable();
    assertThat(table.getQueue()).containsExactly("b", "c");
    assertThat(table.getHolders()).containsExactly("a");
    assertThat(table.getAdmitsNewPeak()).isFalse();

    usage.put("b", PEAK);
    assertThat(tick()).as("b's frozen samples keep it waiting").isEmpty();
    assertThat(set("a", NORMAL)).containsExactly("b THAW SLOT_FREED");
    assertThat(set("b", NORMAL)).containsExactly("c THAW SLOT_FREED");
  }

  @Test
  void aReflexFreezeTheGateWouldHaveAdmittedIsOverruledAndTheTaskHolds() {
    batchTask("a");
    batchTask("b");
    tick();
    assertThat(reflex("b", 300, PEAK)).as("the slot is free").containsExactly("b THAW REFLEX_OVERRULED");
    assertThat(lastTable().getHolders()).containsExactly("b");
    usage.put("b", PEAK);
    assertThat(set("a", PEAK)).as("b holds the one slot now").containsExactly("a FREEZE PEAK_SLOT_BUSY #0");
  }

  @Test
  void aReflexFreezeOfAnInteractiveTaskAHolderOrATaskBelowItsThresholdIsOverruled() {
    h.pipeSpec(spec("n1", "shell", 1).setMemoryNormalBytes(NORMAL).setInteractive(true).build(), now);
    usage.put("shell", NORMAL);
    batchTask("a");
    batchTask("b");
    tick();
    assertThat(set("a", PEAK)).isEmpty();
    assertThat(reflex("shell", 100, PEAK)).containsExactly("shell THAW REFLEX_OVERRULED");
    assertThat(reflex("a", 200, PEAK)).containsExactly("a THAW REFLEX_OVERRULED");
    assertThat(reflex("b", 300, 105 * MB)).as("105 MB is below 1.1 x 100 MB").containsExactly("b THAW REFLEX_OVERRULED");
    assertThat(set("b", PEAK)).as("the gate's own rule still freezes b at its crossing")
        .containsExactly("b FREEZE PEAK_SLOT_BUSY #0");
  }

  @Test
  void aReflexFreezeOfATaskTheGateDoesNotKnowIsThawedAndThenWithdrawn() {
    batchTask("a");
    tick();
    h.pipeResult(reflexFreeze("n1", "ghost", now + 100, PEAK));
    List<TestRecord<String, FreezeDecision>> out = h.drainFreezes();
    assertThat(out).extracting(TestRecord::key).containsExactly("n1/ghost", "n1/ghost");
    assertThat(describe(out.get(0).value())).isEqualTo("ghost THAW REFLEX_OVERRULED");
    assertThat(out.get(1).value()).as("a tombstone: the compacted topic keeps nothing of a task the gate does not know")
        .isNull();
  }

  @Test
  void underGatingOffEveryReflexFreezeIsOverruled() {
    h.cluster.pipeInput("cluster", ClusterConfig.newBuilder().setCluster("cluster")
        .setPeakGatingMode(PeakGatingMode.OFF).build(), now);
    batchTask("a");
    batchTask("b");
    set("a", PEAK);
    assertThat(lastTable().getMode()).isEqualTo(GateMode.OFF);
    assertThat(reflex("b", 500, PEAK)).containsExactly("b THAW REFLEX_OVERRULED");
  }

  @Test
  void aReflexResultWithoutAReadingIsJudgedByTheTasksLastSample() {
    batchTask("a");
    batchTask("b");
    set("a", PEAK);
    h.pipeResult(reflexFreeze("n1", "b", now + 100, null));
    assertThat(freezes()).as("b's last sample was below its threshold").containsExactly("b THAW REFLEX_OVERRULED");
    usage.put("b", PEAK);
    assertThat(tick()).containsExactly("b FREEZE PEAK_SLOT_BUSY #0");
    h.pipeResult(reflexFreeze("n1", "b", now + 100, null));
    assertThat(freezes()).as("frozen and above at its last sample: kept").containsExactly("b FREEZE REFLEX_ADOPTED #0");
  }

  @Test
  void theTableIsPublishedWhenTheGateChangesAndNotOnASampleThatChangesNothing() {
    batchTask("a");
    batchTask("b");
    assertThat(h.drainTables()).as("specs alone: the gate has no time and no live task yet").isEmpty();
    tick();
    List<TestRecord<String, GateTable>> first = h.drainTables();
    assertThat(first).as("the node's first table").isNotEmpty();
    GateTable idle = first.get(first.size() - 1).value();
    assertThat(first.get(first.size() - 1).key()).isEqualTo("n1");
    assertThat(idle.getMode()).isEqualTo(GateMode.COUNT);
    assertThat(idle.getAdmitsNewPeak()).isTrue();
    assertThat(idle.getFreeSlots()).isEqualTo(1);
    assertThat(idle.getTasks()).extracting(t -> t.getTask() + " " + t.getRole() + " " + t.getThresholdBytes())
        .containsExactly("a RUNNING " + (long) Math.floor(1.1 * NORMAL), "b RUNNING " + (long) Math.floor(1.1 * NORMAL));

    tick();
    tick();
    assertThat(h.drainTables()).as("samples that change nothing the reflex reads").isEmpty();

    set("a", PEAK);
    List<TestRecord<String, GateTable>> busy = h.drainTables();
    assertThat(busy).singleElement().satisfies(r -> {
      assertThat(r.timestamp()).as("the sample's record time").isEqualTo(now);
      assertThat(r.value().getTsMs()).isEqualTo(now);
      assertThat(r.value().getHolders()).containsExactly("a");
      assertThat(r.value().getAdmitsNewPeak()).isFalse();
      assertThat(r.value().getTasks()).extracting(t -> t.getTask() + " " + t.getRole() + " " + t.getAdmitted())
          .containsExactly("a " + GateTaskRole.HOLDING + " true", "b " + GateTaskRole.RUNNING + " false");
    });
  }

  @Test
  void inBudgetAChangeOfTheBytesLeftAloneIsRepublishedAtMostOnceASecond() {
    h.nodes.pipeInput("n1", NodeStatus.newBuilder().setNode("n1").setTsMs(now).setMemoryTotalBytes(1000 * MB)
        .setCpus(2).setCgroupVersion(1).build(), now);
    h.cluster.pipeInput("cluster", ClusterConfig.newBuilder().setCluster("cluster")
        .setPeakGatingMode(PeakGatingMode.BUDGET).setMemoryHeadroomBytes(0).build(), now);
    for (String task : List.of("a", "b")) {
      // A declared peak: one learned from the maximum seen would change b's row, which goes out at once.
      h.pipeSpec(spec("n1", task, 1).setMemoryNormalBytes(NORMAL).setMemoryPeakBytes(400 * MB).build(), now);
      usage.put(task, NORMAL);
    }
    tick();
    long left = lastTable().getBytesLeft();
    assertThat(left).isEqualTo(800 * MB);
    now += 300;
    h.pipeSample(memorySample("n1", "b", now, NORMAL + 10 * MB));
    assertThat(h.drainTables()).as("300 ms after the last table").isEmpty();
    now += 700;
    h.pipeSample(memorySample("n1", "b", now, NORMAL + 5 * MB));
    assertThat(lastTable().getBytesLeft()).as("a second after the last table").isEqualTo(795 * MB);
  }

  @Test
  void aNodeWhoseGateEmptiesHasItsTableWithdrawn() {
    now += 1000;
    h.pipeSample(memorySample("n1", "observed", now, NORMAL)); // no spec: observed only
    assertThat(lastTable().getTasks()).isEmpty();
    now += 1000;
    h.pipeSample(CgroupSample.newBuilder(memorySample("n1", "observed", now, 0)).setState(SampleState.GONE).build());
    assertThat(h.drainTables()).singleElement().satisfies(r -> {
      assertThat(r.key()).isEqualTo("n1");
      assertThat(r.value()).as("a tombstone").isNull();
    });
  }

  @Test
  void aReflexFreezeWithABadKeyOrAFarClockIsDeadLetteredAndReachesNoGate() {
    batchTask("a");
    batchTask("b");
    set("a", PEAK);
    h.drainTables();
    EnforcementResult b = reflexFreeze("n1", "b", now + 100, PEAK);
    h.results.pipeInput("n1/other", b, now + 100);
    h.results.pipeInput("n1/b", reflexFreeze("n1", "b", now + 100, -1L), now + 100);
    h.results.pipeInput("n1/b", reflexFreeze("n1", "b", now + 3_600_000, PEAK), now + 100);
    assertThat(freezes()).isEmpty();
    assertThat(h.drainTables()).isEmpty();
    List<String> reasons = dlqReasons();
    assertThat(reasons).hasSize(3);
    assertThat(reasons.get(0)).contains("key n1/other does not match the value's node/task n1/b");
    assertThat(reasons.get(1)).contains("read_memory_bytes must not be negative");
    assertThat(reasons.get(2)).contains("clock skew");
  }

  @Test
  void otherResultsChangeNothingAndOnesWhoseHeaderNamesAnotherStatusAreNotDecoded() {
    batchTask("a");
    batchTask("b");
    set("a", PEAK);
    h.drainTables();
    for (EnforcementStatus status : List.of(EnforcementStatus.APPLIED, EnforcementStatus.UNCHANGED,
        EnforcementStatus.LEASE_EXPIRED, EnforcementStatus.FAILED)) {
      EnforcementResult freeze = result("n1", "b", now + 100, EnforcementKind.FREEZE, status).setReadFrozen(true).build();
      h.pipeResult(freeze);
      h.results.pipeInput("n1/b", freeze, now + 100); // no header: decoded, then dropped
    }
    h.pipeResult(result("n1", "b", now + 100, EnforcementKind.CPU, EnforcementStatus.APPLIED).setReadShares(1024L).build());
    // The header is read before the value: a reflex freeze whose header says APPLIED is never decoded, so unseen.
    RecordHeaders applied = new RecordHeaders();
    EnforcementHeaders.putStatus(applied, EnforcementStatus.APPLIED);
    h.results.pipeInput(new TestRecord<>("n1/b", reflexFreeze("n1", "b", now + 100, PEAK), applied,
        Instant.ofEpochMilli(now + 100)));
    // A tombstone (results never have one) is dropped too.
    h.results.pipeInput("n1/b", null, now + 100);
    assertThat(freezes()).isEmpty();
    assertThat(h.drainTables()).isEmpty();
    assertThat(h.dlq.readRecordsToList()).isEmpty();
    assertThat(set("b", PEAK)).as("b crosses later: the gate alone freezes it").containsExactly("b FREEZE PEAK_SLOT_BUSY #0");

    // The same record without the header is decoded and read.
    h.results.pipeInput("n1/b", reflexFreeze("n1", "b", now + 100, PEAK), now + 100);
    assertThat(freezes()).containsExactly("b FREEZE REFLEX_ADOPTED #0");
  }
}
