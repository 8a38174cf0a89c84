package io.quotaflow.streams.topology;

import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import java.util.List;
import org.apache.kafka.streams.KeyValue;

/**
 * Samples in, CPU decisions out: runs the task's job CPU monitor and publishes a decision on first
 * sight and on every soft-limit change. Tasks silent for the idle timeout are swept as sample time
 * passes (time of the samples, not the wall clock).
 */
final class SampleInput extends CpuInput<CgroupSample> {

  private long nextSweepTsMs = Long.MIN_VALUE;

  SampleInput(TaskStores stores, CpuDecisionMaker decisions, TopologyProbe probe) {
    super(stores, decisions, probe);
  }

  @Override
  void process(String key, CgroupSample sample, long timestampMs) {
    // Checked before it came here (InputCheck, RecordChecks.requireValidSample): the key is the sample's node/task,
    // so it is not parsed again.
    stores.beforeEvent(timestampMs);
    ClusterConfig cluster = stores.cluster();
    TaskCpuState before = stores.task(key);
    CpuDecisionMaker.Outcome outcome = decisions.onSample(before, sample, cluster, stores.node(sample.getNode()), stores::capRatio);
    probe.sampleHandled(sample.getTsMs());
    if (outcome.late()) {
      probe.lateSample();
    }
    stores.apply(key, before, outcome, timestampMs);
    sweepIdleTasks(sample.getTsMs(), cluster, timestampMs);
  }

  private void sweepIdleTasks(long nowTsMs, ClusterConfig cluster, long timestampMs) {
    long idleTimeoutMs = cluster.getTaskIdleTimeoutMs();
    if (nowTsMs < nextSweepTsMs) {
      return;
    }
    nextSweepTsMs = nowTsMs + Math.max(1_000, idleTimeoutMs / 2);
    List<KeyValue<String, TaskCpuState>> idle = stores.tasks(
        state -> state.getFirstSeenTsMs() != null && nowTsMs - state.getLastSampleTsMs() > idleTimeoutMs);
    for (KeyValue<String, TaskCpuState> entry : idle) {
      stores.apply(entry.key, entry.value, decisions.onIdle(entry.value), timestampMs);
    }
  }
}
