package io.quotaflow.streams.topology;

import static io.quotaflow.streams.topology.TopologyHarness.T0;
import static io.quotaflow.streams.topology.TopologyHarness.entries;
import static io.quotaflow.streams.topology.TopologyHarness.memorySample;
import static io.quotaflow.streams.topology.TopologyHarness.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.internal.FinishedTaskUsageRecord;
import io.quotaflow.schemas.avro.internal.GateTaskRecord;
import io.quotaflow.schemas.avro.internal.PeakGateStateRecord;
import io.quotaflow.schemas.avro.internal.TaskRecord;
import io.quotaflow.schemas.avro.internal.TaskUsageStatsRecord;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * A task's usage totals, which teach its operation's profile on its GONE sample, live in its gate record while its
 * run is live (one store write per sample, not two); a gate read from stores an older version wrote carries the
 * totals it kept in {@code memory-usage-stats} over, so a run under way at an upgrade still teaches its whole run.
 */
class GateUsageTotalsTopologyTest {

  private static final long MB = 1L << 20;
  private static final long IDLE_TIMEOUT_MS = 60_000; // the cluster config's default

  @Test
  void aLiveTasksTotalsAreInItsRecordAndLeaveWithItsRun() {
    try (TopologyHarness h = new TopologyHarness()) {
      h.pipeSpec(spec("n1", "x", 1).setOperation("etl").build(), T0);
      long ts = sample(h, T0, 10, 20, 30, 40, 50);

      TaskUsageStatsRecord totals = task(h, "n1/x").getUsage();
      assertThat(totals.getSamples()).isEqualTo(5);
      assertThat(totals.getSumBytes()).isEqualTo(150 * MB);
      assertThat(totals.getMaxBytes()).isEqualTo(50 * MB);
      assertThat(totals.getOperation()).isEqualTo("etl");
      assertThat(task(h, "n1/x").getTask()).as("the task id is left to the key").isEmpty();
      assertThat(entries(h.store(Names.MEMORY_USAGE_STATS_STORE))).as("the old store is not written").isEmpty();

      gone(h, ts);
      assertThat(finished(h)).containsExactly("etl mean 30 MB max 50 MB");
      GateTaskRecord after = task(h, "n1/x");
      assertThat(after.getLive()).as("kept for its spec").isFalse();
      assertThat(after.getUsage()).as("the run ended").isNull();
    }
  }

  @Test
  void aLateSampleTheGateIgnoresStillCountsAndItsRecordSaysSoAtOnce() {
    try (TopologyHarness h = new TopologyHarness()) {
      h.pipeSpec(spec("n1", "x", 1).setOperation("etl").build(), T0);
      sample(h, T0 + 2_000, 10);
      sample(h, T0 + 1_000, 30); // older than what the gate acted on: the gate counts it late and changes no task

      assertThat(h.<PeakGateStateRecord>store(Names.PEAK_GATE_STORE).get("n1").getLateSamples()).isEqualTo(1);
      // The store holds what the memory does, so a restart right now teaches the profile the same run.
      TaskUsageStatsRecord totals = task(h, "n1/x").getUsage();
      assertThat(totals.getSamples()).isEqualTo(2);
      assertThat(totals.getSumBytes()).isEqualTo(40 * MB);
      assertThat(totals.getMaxBytes()).isEqualTo(30 * MB);
    }
  }

  @Test
  void aRunUnderWayWhenTheTotalsMovedTeachesItsWholeRun() {
    try (TopologyHarness before = new TopologyHarness(); TopologyHarness after = new TopologyHarness()) {
      before.pipeSpec(spec("n1", "x", 1).setOperation("etl").build(), T0);
      long ts = sample(before, T0, 10, 20, 30);
      copyAsAnOlderVersionKeptThem(before, after);
      assertThat(task(after, "n1/x").getUsage()).isNull();

      ts = sample(after, ts, 40);
      assertThat(task(after, "n1/x").getUsage().getSamples()).as("carried over, then counted").isEqualTo(4);
      assertThat(entries(after.store(Names.MEMORY_USAGE_STATS_STORE))).as("deleted once carried over").isEmpty();

      ts = sample(after, ts, 50);
      gone(after, ts);
      // The same as the uninterrupted run above; without the carry-over it would be mean 45 MB of the last two.
      assertThat(finished(after)).containsExactly("etl mean 30 MB max 50 MB");
    }
  }

  @Test
  void oldTotalsOfARunThatEndedUnseenAreSweptOnceIdle() {
    try (TopologyHarness h = new TopologyHarness()) {
      KeyValueStore<String, TaskUsageStatsRecord> old = h.store(Names.MEMORY_USAGE_STATS_STORE);
      old.put("n9/gone-quietly", usage("etl", T0));
      old.put("n9/still-running", usage("etl", T0 + IDLE_TIMEOUT_MS));

      long ts = sample(h, T0 + 1_000, 10);
      assertThat(entries(old)).hasSize(2);
      // The next sweep is half a timeout of sample time later.
      sample(h, ts + IDLE_TIMEOUT_MS, 10);
      assertThat(entries(old)).extracting(kv -> kv.key).containsExactly("n9/still-running");
    }
  }

  /** Samples of n1/x a second apart at each usage in MB, from {@code fromMs}; returns the next sample's time. */
  private static long sample(TopologyHarness h, long fromMs, long... usageMb) {
    long ts = fromMs;
    for (long mb : usageMb) {
      h.pipeSample(memorySample("n1", "x", ts, mb * MB));
      ts += 1_000;
    }
    return ts;
  }

  private static void gone(TopologyHarness h, long ts) {
    h.pipeSample(CgroupSample.newBuilder(memorySample("n1", "x", ts, 0)).setState(SampleState.GONE).build());
  }

  private static GateTaskRecord task(TopologyHarness h, String key) {
    TaskRecord record = h.<TaskRecord>store(Names.TASK_STORE).get(key);
    return record == null ? null : record.getGate();
  }

  private static List<String> finished(TopologyHarness h) {
    return h.offlineOutput(h.topics.memoryUsage()).readRecordsToList().stream().map(TestRecord::value)
        .map(u -> ((FinishedTaskUsageRecord) u))
        .map(u -> u.getOperation() + " mean " + u.getMeanBytes() / MB + " MB max " + u.getMaxBytes() / MB + " MB")
        .toList();
  }

  private static TaskUsageStatsRecord usage(String operation, long lastSeenMs) {
    return TaskUsageStatsRecord.newBuilder().setOperation(operation).setSamples(1).setSumBytes(MB).setMaxBytes(MB)
        .setLastSeenMs(lastSeenMs).build();
  }

  /**
   * {@code to}'s gate stores as an app before the move leaves them: what {@code from} holds, with each task's totals
   * in {@code memory-usage-stats} rather than in its record, and its id in its record as well as its key (the task
   * records' gate parts alone: the CPU processor's stores are not copied).
   */
  private static void copyAsAnOlderVersionKeptThem(TopologyHarness from, TopologyHarness to) {
    for (String store : List.of(Names.CONFIG_STORE, Names.NODE_STATUS_STORE, Names.PEAK_GATE_STORE,
        Names.GATE_TABLE_STORE)) {
      from.copyStore(store, to, (key, value) -> value);
    }
    KeyValueStore<String, TaskRecord> tasks = to.store(Names.TASK_STORE);
    KeyValueStore<String, TaskUsageStatsRecord> old = to.store(Names.MEMORY_USAGE_STATS_STORE);
    for (KeyValue<String, TaskRecord> kv : entries(from.<TaskRecord>store(Names.TASK_STORE))) {
      GateTaskRecord gate = kv.value.getGate();
      if (gate == null) {
        continue;
      }
      if (gate.getUsage() != null) {
        old.put(kv.key, gate.getUsage());
      }
      tasks.put(kv.key, new TaskRecord(null,
          GateTaskRecord.newBuilder(gate).setUsage(null).setTask(TaskKey.parse(kv.key).task()).build()));
    }
  }
}
