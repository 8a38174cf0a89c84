package io.quotaflow.streams.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.JobCpuMonitorConfig;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.PeakGateStateRecord;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import io.quotaflow.schemas.avro.internal.TaskRecord;
import io.quotaflow.streams.simulate.OfflineDriver;
import io.quotaflow.streams.topology.LiveStores;
import java.time.Instant;
import org.apache.kafka.streams.TestInputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The node and task views over the stores the real topology (offline) leaves behind. */
class LiveViewsTest {

  private static final long T0 = 1_700_000_000_000L;
  private static final long MB = 1L << 20;

  private final OfflineDriver offline = new OfflineDriver(Instant.ofEpochMilli(T0));
  private final TestInputTopic<String, CgroupSample> samples = offline.input(offline.topics().samples());
  private final long[] cpuUsec = new long[4];

  @AfterEach
  void close() {
    offline.close();
  }

  private void spec(String task, long normalBytes, boolean reclaim) {
    offline.input(offline.topics().taskSpecs()).pipeInput("n1/" + task, TaskSpec.newBuilder().setNode("n1").setTask(task)
        .setNcpus(2).setPool("batch").setOperation("op").setMemoryNormalBytes(normalBytes)
        .setJobCpuMonitor(JobCpuMonitorConfig.newBuilder().setEnableCpuReclaim(reclaim).build()).build(), T0);
  }

  private void sample(int task, long tsMs, long anonBytes) {
    cpuUsec[task] += 500_000;
    samples.pipeInput("n1/t" + task, CgroupSample.newBuilder().setNode("n1").setTask("t" + task).setTsMs(tsMs)
        .setCpuUsageUsec(cpuUsec[task]).setMemoryBytes(anonBytes).setMemoryAnonBytes(anonBytes)
        .setState(SampleState.RUNNING).setSeq(0).build(), tsMs);
  }

  private LiveStores.GateView gate() {
    PeakGateStateRecord node = offline.driver().<String, PeakGateStateRecord>getKeyValueStore(LiveStores.PEAK_GATE).get("n1");
    if (node == null) {
      return null;
    }
    return new LiveStores.GateView(node,
        LiveStores.gateTasks(offline.driver().<String, TaskRecord>getKeyValueStore(LiveStores.TASKS), "n1"));
  }

  /** The task's state with its spec, as the live-state API reads the two stores. */
  private TaskCpuState cpu(String task) {
    String key = "n1/" + task;
    TaskRecord record = offline.driver().<String, TaskRecord>getKeyValueStore(LiveStores.TASKS).get(key);
    return LiveStores.taskCpu(key, record == null ? null : record.getCpu(),
        offline.driver().<String, TaskSpec>getKeyValueStore(LiveStores.TASK_SPEC).get(key));
  }

  private NodeStatus status() {
    return offline.driver().<String, NodeStatus>getKeyValueStore(LiveStores.NODE_STATUS).get("n1");
  }

  /** Three tasks with a normal of 100 MB peak one after another: t1 takes the slot, t2 then t3 queue behind it. */
  private void threePeaks() {
    offline.input(offline.topics().nodes()).pipeInput("n1", NodeStatus.newBuilder().setNode("n1").setTsMs(T0)
        .setMemoryTotalBytes(8L << 30).setCpus(4).setCgroupVersion(1).build(), T0);
    for (int t = 1; t <= 3; t++) {
      spec("t" + t, 100 * MB, t == 1);
    }
    for (int s = 0; s < 10; s++) {
      for (int t = 1; t <= 3; t++) {
        boolean peaking = s >= 3 + t; // t1 from 4 s, t2 from 5 s, t3 from 6 s
        sample(t, T0 + s * 1000L, peaking ? 150 * MB : 80 * MB);
      }
    }
  }

  @Test
  void aNodeShowsItsMemoryTheSlotHolderAndTheQueueInFreezeOrder() {
    threePeaks();
    NodeView node = NodeView.of("n1", status(), gate());
    assertThat(node.memoryTotalBytes()).isEqualTo(8L << 30);
    assertThat(node.cpus()).isEqualTo(4);
    assertThat(node.gate().mode()).isEqualTo("COUNT");
    assertThat(node.gate().maxConcurrentPeaks()).isEqualTo(1);
    assertThat(node.holders()).extracting(NodeView.Holder::task).containsExactly("t1");
    assertThat(node.waitQueue()).extracting(NodeView.Waiting::task).containsExactly("t2", "t3");
    assertThat(node.waitQueue()).extracting(NodeView.Waiting::position).containsExactly(0, 1);
    assertThat(node.waitQueue().get(0).waitingSinceMs()).isEqualTo(T0 + 5000);
    assertThat(node.waitQueue().get(1).waitingSinceMs()).isEqualTo(T0 + 6000);
  }

  @Test
  void aNodeKnownOnlyByItsStatusHasNoGateAndAnUnknownNodeNoView() {
    offline.input(offline.topics().nodes()).pipeInput("n1", NodeStatus.newBuilder().setNode("n1").setTsMs(T0)
        .setMemoryTotalBytes(1L << 30).setCpus(2).setCgroupVersion(2).build(), T0);
    NodeView node = NodeView.of("n1", status(), gate());
    assertThat(node.gate()).isNull();
    assertThat(node.holders()).isEmpty();
    assertThat(node.waitQueue()).isEmpty();
    assertThat(NodeView.of("n2", null, null)).isNull();
  }

  @Test
  void aTaskShowsItsMonitorItsLastDecisionAndItsPlaceAtTheGate() {
    threePeaks();
    TaskView holder = TaskView.of("n1", "t1", cpu("t1"), gate());
    assertThat(holder.pool()).isEqualTo("batch");
    assertThat(holder.reclaimEnabled()).isTrue();
    assertThat(holder.hardLimitCpu()).isEqualTo(2.0);
    assertThat(holder.smoothedUsageCpu()).isNotNull();
    assertThat(holder.votes()).isNotEmpty().allSatisfy(v -> assertThat(v).isBetween(-1, 1));
    assertThat(holder.votesSum()).isEqualTo(holder.votes().stream().mapToInt(Integer::intValue).sum());
    assertThat(holder.reportedLimitCpu()).as("reclaim on: the soft limit").isEqualTo(holder.softLimitCpu());
    assertThat(holder.cgroup().get("shares").asLong()).isEqualTo(Math.round(holder.effectiveLimitCpu() * 1000));
    assertThat(holder.freeze().role()).isEqualTo("HOLDING");
    assertThat(holder.freeze().frozen()).isFalse();
    assertThat(holder.freeze().queuePosition()).isNull();

    TaskView last = TaskView.of("n1", "t3", cpu("t3"), gate());
    assertThat(last.reclaimEnabled()).isFalse();
    assertThat(last.reportedLimitCpu()).as("reclaim off: the hard limit").isEqualTo(2.0);
    assertThat(last.freeze().role()).isEqualTo("WAITING");
    assertThat(last.freeze().frozen()).isTrue();
    assertThat(last.freeze().queuePosition()).isEqualTo(1);
    assertThat(last.freeze().waitingSinceMs()).isEqualTo(T0 + 6000);
    assertThat(last.spec().get("memory_normal_bytes").asLong()).isEqualTo(100 * MB);
  }

  @Test
  void aTaskKnownOnlyByItsSpecHasNoDecisionYetAndAnUnknownTaskNoView() {
    spec("t1", 100 * MB, true);
    TaskView pending = TaskView.of("n1", "t1", cpu("t1"), gate());
    assertThat(pending.hasSpec()).isTrue();
    assertThat(pending.hardLimitCpu()).isNull();
    assertThat(pending.cgroup()).isNull();
    assertThat(pending.smoothedUsageCpu()).isNull();
    assertThat(TaskView.of("n1", "nobody", null, null)).isNull();
  }
}
