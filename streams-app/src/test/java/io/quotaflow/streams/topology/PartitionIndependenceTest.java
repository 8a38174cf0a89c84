package io.quotaflow.streams.topology;

import static io.quotaflow.streams.topology.TopologyHarness.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.NodePartitioning;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.GateTable;
import io.quotaflow.schemas.avro.JobCpuMonitorConfig;
import io.quotaflow.schemas.avro.PeakGatingMode;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * DESIGN's determinism claim: a task's decisions depend on its own records and the configs, not on
 * how nodes are spread over partitions. The same input runs once on one partition and once split
 * over 12 (each partition's share in its own driver, configs broadcast to all), and every task's
 * decision sequence, and every node's sequence of gate tables, must be the same.
 */
class PartitionIndependenceTest {

  private static final long NORMAL_BYTES = 256L << 20;

  sealed interface Event permits Spec, Sample, Cluster {}

  record Spec(TaskSpec spec, long tsMs) implements Event {}

  record Sample(CgroupSample sample) implements Event {}

  record Cluster(ClusterConfig config, long tsMs) implements Event {}

  /** Every task's CPU decisions and freeze decisions, and every node's gate tables, in order. */
  record Decisions(Map<String, List<CpuDecision>> cpu, Map<String, List<FreezeDecision>> freeze,
      Map<String, List<GateTable>> tables) {}

  @Test
  void oneAndTwelvePartitionsGiveTheSameDecisionsPerTask() {
    List<Event> events = workload(new Random(42));
    Decisions whole = run(events, 1);
    Decisions split = run(events, 12);
    assertThat(whole.cpu()).hasSizeGreaterThan(30);
    assertThat(whole.cpu().values().stream().mapToInt(List::size).sum()).isGreaterThan(100);
    assertThat(split.cpu()).isEqualTo(whole.cpu());

    List<FreezeDecision> freezes = whole.freeze().values().stream().flatMap(List::stream).toList();
    assertThat(freezes).extracting(FreezeDecision::getReason)
        .contains("PEAK_SLOT_BUSY", "SLOT_FREED", "LEASE_RENEWAL", "GATING_OFF");
    assertThat(freezes).hasSizeGreaterThan(30);
    assertThat(split.freeze()).isEqualTo(whole.freeze());

    assertThat(whole.tables()).hasSize(16);
    assertThat(whole.tables().values().stream().mapToInt(List::size).sum()).isGreaterThan(16 * 5);
    assertThat(split.tables()).isEqualTo(whole.tables());
  }

  /** Feeds every event to the driver of its node's partition; cluster configs go to every driver. */
  private static Decisions run(List<Event> events, int partitions) {
    List<TopologyHarness> drivers = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      drivers.add(new TopologyHarness());
    }
    Map<String, List<CpuDecision>> byTask = new TreeMap<>();
    Map<String, List<FreezeDecision>> freezesByTask = new TreeMap<>();
    Map<String, List<GateTable>> tablesByNode = new TreeMap<>();
    try {
      for (Event event : events) {
        if (event instanceof Spec s) {
          drivers.get(NodePartitioning.partitionOfNode(s.spec().getNode(), partitions)).pipeSpec(s.spec(), s.tsMs());
        } else if (event instanceof Sample s) {
          drivers.get(NodePartitioning.partitionOfNode(s.sample().getNode(), partitions)).pipeSample(s.sample());
        } else if (event instanceof Cluster c) {
          drivers.forEach(d -> d.cluster.pipeInput(c.config().getCluster(), c.config(), c.tsMs()));
        }
      }
      for (TopologyHarness driver : drivers) {
        driver.drain().forEach(r -> byTask.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value()));
        driver.drainFreezes().forEach(r -> freezesByTask.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value()));
        driver.drainTables().forEach(r -> tablesByNode.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value()));
      }
    } finally {
      drivers.forEach(TopologyHarness::close);
    }
    return new Decisions(byTask, freezesByTask, tablesByNode);
  }

  /**
   * 16 nodes x 3 tasks over 3 minutes: busy, idle and bursty tasks, a spec change, a config change, a task that
   * finishes and one that pauses past the idle timeout. Two tasks a node reach memory peaks that overlap now and
   * then, so the gate freezes, renews and thaws; gating is switched off near the end.
   */
  private static List<Event> workload(Random random) {
    List<Event> events = new ArrayList<>();
    Map<String, long[]> usage = new LinkedHashMap<>();
    for (int n = 0; n < 16; n++) {
      for (int t = 0; t < 3; t++) {
        String node = "node-" + n;
        String task = "task-" + t;
        boolean reclaim = random.nextBoolean();
        if (!(n == 3 && t == 2)) { // one task runs without a spec: observed only
          events.add(new Spec(TaskSpec.newBuilder().setNode(node).setTask(task).setPool("pool-" + (n % 3))
              .setNcpus(n == 5 && t == 0 ? 0 : 1 + random.nextInt(2))
              .setMemoryNormalBytes(NORMAL_BYTES)
              .setJobCpuMonitor(JobCpuMonitorConfig.newBuilder().setEnableCpuReclaim(reclaim).build()).build(), T0));
        }
        usage.put(node + "/" + task, new long[] {0});
      }
    }
    // A 30 s lease: waits of a few tens of seconds see their FREEZE renewed
    events.add(new Cluster(ClusterConfig.newBuilder().setCluster("main").setFreezeLeaseMs(30_000).build(), T0));
    for (int second = 0; second < 180; second++) {
      long ts = T0 + second * 1000L;
      if (second == 60) {
        events.add(new Cluster(ClusterConfig.newBuilder().setCluster("main").setEnforcePerPeriodQuota(true)
            .setFreezeLeaseMs(30_000).build(), ts));
      }
      if (second == 157) {
        events.add(new Cluster(ClusterConfig.newBuilder().setCluster("main").setEnforcePerPeriodQuota(true)
            .setFreezeLeaseMs(30_000).setPeakGatingMode(PeakGatingMode.OFF).build(), ts));
      }
      if (second == 90) {
        events.add(new Spec(TaskSpec.newBuilder().setNode("node-1").setTask("task-1").setPool("pool-1").setNcpus(2)
            .setMemoryNormalBytes(NORMAL_BYTES)
            .setCpuLimit(1.2).setJobCpuMonitor(JobCpuMonitorConfig.newBuilder().setEnableCpuReclaim(true).build()).build(), ts));
      }
      for (Map.Entry<String, long[]> entry : usage.entrySet()) {
        String[] key = entry.getKey().split("/");
        int t = Integer.parseInt(key[1].substring(5));
        boolean paused = entry.getKey().equals("node-7/task-0") && second >= 40 && second < 110;
        boolean finished = entry.getKey().equals("node-2/task-1") && second > 120;
        if (paused || finished) {
          continue;
        }
        double cores = switch (t) {
          case 0 -> 0.05;
          case 1 -> 1.0;
          default -> (second / 20) % 2 == 0 ? 0.1 : 1.8;
        };
        entry.getValue()[0] += Math.round(cores * 1_000_000 * (0.9 + 0.2 * random.nextDouble()));
        SampleState state = entry.getKey().equals("node-2/task-1") && second == 120 ? SampleState.GONE : SampleState.RUNNING;
        int n = Integer.parseInt(key[0].substring(5));
        boolean peak = switch (t) {
          case 0 -> false;
          case 1 -> ((second + 7 * n) / 25) % 3 == 1;
          default -> cores > 1;
        };
        long anonBytes = peak ? NORMAL_BYTES * 5 / 4 : NORMAL_BYTES - (1L << 24);
        events.add(new Sample(CgroupSample.newBuilder().setNode(key[0]).setTask(key[1]).setTsMs(ts + random.nextInt(50))
            .setCpuUsageUsec(entry.getValue()[0]).setMemoryBytes(anonBytes + (1L << 26)).setMemoryAnonBytes(anonBytes)
            .setState(state).setSeq(second).build()));
      }
    }
    return events;
  }
}
