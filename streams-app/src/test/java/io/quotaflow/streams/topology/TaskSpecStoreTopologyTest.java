package io.quotaflow.streams.topology;

import static io.quotaflow.streams.topology.TopologyHarness.T0;
import static io.quotaflow.streams.topology.TopologyHarness.entries;
import static io.quotaflow.streams.topology.TopologyHarness.sample;
import static io.quotaflow.streams.topology.TopologyHarness.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.JobCpuMonitorConfig;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import io.quotaflow.schemas.avro.internal.TaskRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/**
 * A task's spec is kept in a store of its own, written when a spec arrives, while its state, written on every
 * sample, is stored without it and without the ids its key says; the processor reads the two as one, with the key's
 * ids, and reads states an older version wrote with the spec and the ids inside.
 */
class TaskSpecStoreTopologyTest {

  private static final String SPEC_CHANGELOG = "quotaflow-offline-" + Names.TASK_SPEC_STORE + "-changelog";
  private static final String STATE_CHANGELOG = "quotaflow-offline-" + Names.TASK_STORE + "-changelog";
  /** Every store the CPU processor reads and writes. */
  private static final List<String> CPU_STORES = List.of(Names.TASK_STORE, Names.TASK_SPEC_STORE,
      Names.NODE_STATUS_STORE, Names.CONFIG_STORE, Names.POOL_PARTIALS_STORE, Names.POOL_REPORT_STORE);

  @Test
  void aSampleRewritesItsTasksStateButNotItsSpec() {
    try (TopologyHarness h = new TopologyHarness()) {
      TaskSpec spec = reclaiming("t1", 2).build();
      h.pipeSpec(spec, T0);
      h.run("n1", "t1", T0, 0, 0.5, 1000, 10);

      assertThat(specs(h).get("n1/t1")).isEqualTo(spec);
      TaskCpuState stored = state(h, "n1/t1");
      assertThat(stored.getSpec()).as("stored without its spec").isNull();
      assertThat(List.of(stored.getNode(), stored.getTask(), stored.getLastDecision().getNode(),
          stored.getLastDecision().getTask())).as("nor the ids its key says").containsOnly("");
      assertThat(changelog(h, SPEC_CHANGELOG)).as("one spec, one write").hasSize(1);
      assertThat(changelog(h, STATE_CHANGELOG)).as("the state, on every sample").hasSizeGreaterThanOrEqualTo(10);
      assertThat(h.drain()).first().satisfies(r -> {
        assertThat(r.value().getReason()).isEqualTo("INITIAL");
        assertThat(r.value().getNode() + "/" + r.value().getTask()).as("published with its ids").isEqualTo("n1/t1");
      });
    }
  }

  @Test
  void aNewSpecReplacesTheKeptOneAndAGoneTaskLeavesNeither() {
    try (TopologyHarness h = new TopologyHarness()) {
      h.pipeSpec(reclaiming("t1", 2).build(), T0);
      long[] at = h.run("n1", "t1", T0, 0, 0.5, 1000, 3);
      TaskSpec wider = reclaiming("t1", 4).build();
      h.pipeSpec(wider, at[0]);
      assertThat(specs(h).get("n1/t1")).isEqualTo(wider);
      assertThat(h.drain()).last().satisfies(r -> {
        assertThat(r.value().getReason()).isEqualTo("SPEC_CHANGED");
        assertThat(r.value().getHardLimitCpu()).isEqualTo(4.0);
      });

      h.pipeSample(CgroupSample.newBuilder(sample("n1", "t1", at[0] + 1000, at[1])).setState(SampleState.GONE).build());
      assertThat(state(h, "n1/t1")).isNull();
      assertThat(specs(h).get("n1/t1")).isNull();
    }
  }

  @Test
  void aProcessorStartedFromTheStoresDecidesAsTheOneThatKeptRunning() {
    try (TopologyHarness running = new TopologyHarness(); TopologyHarness restarted = new TopologyHarness()) {
      long ts = before(running);
      copy(running, restarted, true, (key, state) -> state);
      assertThat(entries(specs(restarted))).extracting(kv -> kv.key).containsExactly("n1/t1", "n1/t2");

      Map<String, List<String>> expected = after(running, ts);
      assertThat(after(restarted, ts)).isEqualTo(expected);
      assertThat(summaries(expected)).as("every path that reads stored states, with and without a spec").contains(
          "n1/t1 CONFIG_CHANGED hard 2.0 apply true", "n1/t2 CONFIG_CHANGED/RECLAIM_OFF hard 1.0 apply true",
          "n1/t3 CONFIG_CHANGED/NO_SPEC hard 3.0 apply false", "n1/t1 NODE_CHANGED hard 2.0 apply true",
          "n1/t2 withdrawn", "n1/t3 withdrawn", "n1/t2 INITIAL/RECLAIM_OFF hard 1.0 apply true");
    }
  }

  @Test
  void statesAnOlderVersionWroteWithTheirSpecAndIdsInsideAreReadWithThemAndWrittenWithout() {
    try (TopologyHarness running = new TopologyHarness(); TopologyHarness upgraded = new TopologyHarness()) {
      long ts = before(running);
      KeyValueStore<String, TaskSpec> kept = specs(running);
      copy(running, upgraded, false, (key, state) -> {
        TaskKey ids = TaskKey.parse(key);
        CpuDecision last = state.getLastDecision();
        return TaskCpuState.newBuilder(state).setNode(ids.node()).setTask(ids.task()).setSpec(kept.get(key))
            .setLastDecision(last == null ? null
                : CpuDecision.newBuilder(last).setNode(ids.node()).setTask(ids.task()).build())
            .build();
      });

      assertThat(after(upgraded, ts)).isEqualTo(after(running, ts));
      assertThat(entries(specs(upgraded))).extracting(kv -> kv.key).as("moved when read").contains("n1/t1", "n1/t2");
      TaskCpuState rewritten = state(upgraded, "n1/t1");
      assertThat(rewritten.getSpec()).as("written without it").isNull();
      assertThat(List.of(rewritten.getNode(), rewritten.getTask(), rewritten.getLastDecision().getNode()))
          .as("and without ids").containsOnly("");
    }
  }

  /** t1 with a spec and reclaim on, t2 with one and reclaim off, t3 without: a decision each; returns the next ts. */
  private static long before(TopologyHarness h) {
    h.nodes.pipeInput("n1", node(1), T0);
    h.pipeSpec(reclaiming("t1", 2).build(), T0);
    h.pipeSpec(spec("n1", "t2", 1).build(), T0);
    long ts = T0;
    for (int i = 0; i < 5; i++, ts += 1000) {
      for (String task : List.of("t1", "t2", "t3")) {
        h.pipeSample(sample("n1", task, ts, i * 500_000L));
      }
    }
    h.drain();
    return ts;
  }

  /**
   * From {@code ts}: a cluster config (every task republished), a node change (the node's tasks republished), t1 alone sampled
   * well past the idle timeout (t2 and t3 swept), t2 back. What was published for each task, in order, a line each:
   * by task, because when the idle sweep runs depends on when the processor started, not on the records.
   */
  private static Map<String, List<String>> after(TopologyHarness h, long ts) {
    // Quotas count hyperthreads: the node's change of threads per core changes the quotas of its tasks with a spec.
    h.cluster.pipeInput("main", ClusterConfig.newBuilder().setCluster("main").setEnforcePerPeriodQuota(true)
        .setNcpusAreCores(true).setUseHyperthreads(true).build(), ts);
    h.nodes.pipeInput("n1", node(2), ts);
    long t = ts;
    for (int i = 0; i < 100; i++, t += 1000) {
      h.pipeSample(sample("n1", "t1", t, 2_500_000L + i * 500_000L));
    }
    h.pipeSample(sample("n1", "t2", t, 9_000_000L));
    Map<String, List<String>> out = new TreeMap<>();
    h.drain().forEach(r -> {
      assertThat(r.value() == null ? r.key() : r.value().getNode() + "/" + r.value().getTask())
          .as("a decision's ids, which the store leaves to its key").isEqualTo(r.key());
      out.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(describe(r.value()));
    });
    return out;
  }

  /** Each task's decisions, up to their soft limits. */
  private static List<String> summaries(Map<String, List<String>> decisions) {
    return decisions.entrySet().stream().flatMap(e -> e.getValue().stream()
        .map(l -> e.getKey() + " " + (l.contains(" soft ") ? l.substring(0, l.indexOf(" soft ")) : l))).toList();
  }

  private static String describe(CpuDecision d) {
    return d == null ? "withdrawn"
        : d.getReason() + " hard " + d.getHardLimitCpu() + " apply " + d.getApply() + " soft " + d.getSoftLimitCpu()
            + " cgroup " + d.getCgroup();
  }

  private static NodeStatus node(int threadsPerCore) {
    return NodeStatus.newBuilder().setNode("n1").setTsMs(T0).setMemoryTotalBytes(8L << 30).setCpus(3)
        .setThreadsPerCore(threadsPerCore).setCgroupVersion(1).build();
  }

  private static TaskSpec.Builder reclaiming(String task, double ncpus) {
    return spec("n1", task, ncpus).setJobCpuMonitor(JobCpuMonitorConfig.newBuilder().setEnableCpuReclaim(true).build());
  }

  /**
   * The CPU processor's stores of {@code from} into {@code to}, each task state through {@code asStored} (a task
   * record's CPU part alone: the gate's stores are not copied); the spec store too when {@code specsApart}, as this
   * version keeps them.
   */
  private static void copy(TopologyHarness from, TopologyHarness to, boolean specsApart,
      BiFunction<String, TaskCpuState, TaskCpuState> asStored) {
    for (String store : CPU_STORES) {
      if (store.equals(Names.TASK_STORE)) {
        from.<TaskRecord>copyStore(store, to, (key, record) ->
            TaskRecords.record(record.getCpu() == null ? null : asStored.apply(key, record.getCpu()), null));
      } else if (specsApart || !store.equals(Names.TASK_SPEC_STORE)) {
        from.copyStore(store, to, (key, value) -> value);
      }
    }
  }

  private static KeyValueStore<String, TaskSpec> specs(TopologyHarness h) {
    return h.store(Names.TASK_SPEC_STORE);
  }

  /** The task's CPU state as its record holds it; null when it has none. */
  private static TaskCpuState state(TopologyHarness h, String key) {
    TaskRecord record = h.<TaskRecord>store(Names.TASK_STORE).get(key);
    return record == null ? null : record.getCpu();
  }

  private static List<?> changelog(TopologyHarness h, String topic) {
    return h.rawOutput(topic).readRecordsToList();
  }
}
