package io.quotaflow.streams.topology;

import static io.quotaflow.streams.topology.TopologyHarness.T0;
import static io.quotaflow.streams.topology.TopologyHarness.memorySample;
import static io.quotaflow.streams.topology.TopologyHarness.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.PeakGatingMode;
import io.quotaflow.schemas.avro.internal.GateTaskRecord;
import io.quotaflow.schemas.avro.internal.PeakGateStateRecord;
import io.quotaflow.schemas.avro.internal.TaskRecord;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * A sample moves its node gate's clock and rewrites its own task's record, which carries the clock, so the node's
 * record is not rewritten for the clock alone. A gate read from its stores (a restart, a rebalance) takes the newest
 * clock of its records: it acts, and is moved on when its node falls silent, from its last sample's time.
 */
class GateClockTopologyTest {

  private static final long MB = 1L << 20;
  private static final long NORMAL = 100 * MB;
  /** Above 1.1 x normal: approaching the peak. */
  private static final long PEAK = 120 * MB;

  @Test
  void aSamplesClockGoesWithItsTaskRecordAndTheNodeRecordIsRewrittenOnlyWhenMoreChanges() {
    try (TopologyHarness h = new TopologyHarness()) {
      h.pipeSpec(spec("n1", "a", 1).setOperation("etl").setMemoryNormalBytes(NORMAL).build(), T0);
      PeakGateStateRecord before = node(h);
      long ts = T0;
      for (int i = 1; i <= 5; i++) {
        ts = T0 + i * 1000L;
        h.pipeSample(memorySample("n1", "a", ts, NORMAL));
      }

      assertThat(node(h)).as("not rewritten for the clock alone").isEqualTo(before);
      GateTaskRecord a = task(h, "n1/a");
      assertThat(a.getGateClock().getStreamTimeMs()).isEqualTo(ts);
      assertThat(a.getGateClock().getClockRecordTsMs()).isEqualTo(ts);
      assertThat(new LiveStores.GateView(node(h), List.of(a)).streamTimeMs()).isEqualTo(ts);

      h.cluster.pipeInput("cluster", ClusterConfig.newBuilder().setCluster("cluster").setFreezeLeaseMs(60_000).build(),
          ts + 100);
      PeakGateStateRecord changed = node(h);
      assertThat(changed.getConfig().getFreezeLeaseMs()).isEqualTo(60_000);
      assertThat(changed.getStreamTimeMs()).as("written with the clock of the moment").isEqualTo(ts);
      assertThat(changed.getClockRecordTsMs()).isEqualTo(ts);
    }
  }

  @Test
  void aGateReadFromItsStoresActsAtItsLastSamplesTime() {
    try (TopologyHarness before = new TopologyHarness(); TopologyHarness after = new TopologyHarness()) {
      long frozenAt = waitingTaskB(before);
      long last = frozenAt;
      for (int i = 1; i <= 3; i++) {
        last = frozenAt + i * 1000L;
        before.pipeSample(memorySample("n1", "a", last, PEAK));
        before.pipeSample(memorySample("n1", "b", last, PEAK));
      }
      assertThat(node(before).getStreamTimeMs()).as("the node record's clock is older").isLessThan(last);
      copyGateStores(before, after);

      after.cluster.pipeInput("cluster",
          ClusterConfig.newBuilder().setCluster("cluster").setPeakGatingMode(PeakGatingMode.OFF).build(), last + 300);

      List<FreezeDecision> thaws = freezes(after);
      assertThat(thaws).extracting(d -> d.getTask() + " " + d.getAction() + " " + d.getReason())
          .containsExactly("b THAW GATING_OFF");
      assertThat(thaws.get(0).getTsMs()).as("the gate's time: its last sample's").isEqualTo(last);
    }
  }

  @Test
  void aSilentGateReadFromItsStoresIsMovedOnFromItsLastSamplesTime() {
    try (TopologyHarness before = new TopologyHarness(); TopologyHarness after = new TopologyHarness()) {
      long frozenAt = waitingTaskB(before);
      copyGateStores(before, after);

      // n1 is silent from here; another node's samples alone move the partition's stream time on
      List<FreezeDecision> seen = new ArrayList<>();
      for (long ts = frozenAt + 1000; ts <= frozenAt + 30_000; ts += 1000) {
        after.pipeSample(memorySample("n2", "other", ts, NORMAL));
        seen.addAll(freezes(after));
      }

      assertThat(seen).isNotEmpty();
      FreezeDecision renewal = seen.get(0);
      assertThat(renewal.getTask() + " " + renewal.getReason()).isEqualTo("b LEASE_RENEWAL");
      // Renewed a third of its 30 s lease after the freeze, by the gate's own time
      assertThat(renewal.getTsMs() - frozenAt).isBetween(10_000L, 12_000L);
    }
  }

  /** Gating with a 30 s lease, a holding and b frozen behind it: the time of b's freeze. */
  private static long waitingTaskB(TopologyHarness h) {
    h.cluster.pipeInput("cluster", ClusterConfig.newBuilder().setCluster("cluster").setFreezeLeaseMs(30_000).build(),
        T0);
    h.pipeSpec(spec("n1", "a", 1).setOperation("etl").setMemoryNormalBytes(NORMAL).build(), T0);
    h.pipeSpec(spec("n1", "b", 1).setOperation("etl").setMemoryNormalBytes(NORMAL).build(), T0);
    h.pipeSample(memorySample("n1", "a", T0 + 1000, PEAK));
    h.pipeSample(memorySample("n1", "b", T0 + 2000, PEAK));
    assertThat(freezes(h)).extracting(d -> d.getTask() + " " + d.getAction()).containsExactly("b FREEZE");
    return T0 + 2000;
  }

  /** {@code to}'s stores as a new instance restoring {@code from}'s changelogs finds them: the task records' gate parts. */
  private static void copyGateStores(TopologyHarness from, TopologyHarness to) {
    for (String store : List.of(Names.CONFIG_STORE, Names.NODE_STATUS_STORE, Names.PEAK_GATE_STORE,
        Names.GATE_TABLE_STORE)) {
      KeyValueStore<String, Object> target = to.store(store);
      try (KeyValueIterator<String, Object> all = from.<Object>store(store).all()) {
        all.forEachRemaining((KeyValue<String, Object> kv) -> target.put(kv.key, kv.value));
      }
    }
    from.<TaskRecord>copyStore(Names.TASK_STORE, to, (key, record) -> TaskRecords.record(null, record.getGate()));
  }

  private static List<FreezeDecision> freezes(TopologyHarness h) {
    return h.drainFreezes().stream().map(TestRecord::value).toList();
  }

  private static PeakGateStateRecord node(TopologyHarness h) {
    return h.<PeakGateStateRecord>store(Names.PEAK_GATE_STORE).get("n1");
  }

  private static GateTaskRecord task(TopologyHarness h, String key) {
    TaskRecord record = h.<TaskRecord>store(Names.TASK_STORE).get(key);
    return record == null ? null : record.getGate();
  }
}
