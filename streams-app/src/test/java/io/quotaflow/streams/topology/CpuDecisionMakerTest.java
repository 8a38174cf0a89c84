package io.quotaflow.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import org.junit.jupiter.api.Test;

/**
 * What the decision maker does to the states it is given: a new state is a shallow copy with fields replaced, so the
 * state before is left as it was (its pool contribution is compared with the next one) and the spec it was given
 * is the very instance the next state holds (the processor shares specs' values among its tasks, TaskStores).
 */
class CpuDecisionMakerTest {

  private final CpuDecisionMaker maker = new CpuDecisionMaker();
  private final ClusterConfig cluster = TaskStores.defaultCluster();

  @Test
  void aNewSpecOfARunningTaskLeavesTheStateBeforeAsItWasAndHoldsTheSpecItWasGiven() {
    TaskSpec first = spec(2.0);
    TaskCpuState known = maker.onSpec(null, first, 0, cluster, null, CpuDecisionMaker.PoolCapLookup.NONE).state();
    TaskCpuState running = maker.onSample(known, sample(1_000, 0), cluster, null, CpuDecisionMaker.PoolCapLookup.NONE)
        .state();
    TaskCpuState runningCopy = TaskCpuState.newBuilder(running).build();
    assertThat(running.getLastDecision()).isNotNull();

    TaskSpec second = spec(4.0);
    CpuDecisionMaker.Outcome changed = maker.onSpec(running, second, 2_000, cluster, null,
        CpuDecisionMaker.PoolCapLookup.NONE);

    assertThat(running).isEqualTo(runningCopy);
    assertThat(running.getSpec()).isSameAs(first);
    assertThat(changed.state().getSpec()).isSameAs(second);
    assertThat(changed.decision()).isNotNull();
    assertThat(changed.state().getLastDecision()).as("kept without the ids the state has")
        .isEqualTo(CpuDecision.newBuilder(changed.decision()).setNode("").setTask("").build());
    assertThat(changed.decision().getNode() + "/" + changed.decision().getTask()).isEqualTo("n1/t1");
    assertThat(changed.state().getMonitor().getHardLimitCpu()).isEqualTo(4.0);
  }

  @Test
  void aRepublishedDecisionLeavesTheStateBeforeAsItWasAndKeepsItsSpec() {
    TaskSpec spec = spec(2.0);
    TaskCpuState running = maker.onSample(maker.onSpec(null, spec, 0, cluster, null,
        CpuDecisionMaker.PoolCapLookup.NONE).state(), sample(1_000, 0), cluster, null,
        CpuDecisionMaker.PoolCapLookup.NONE).state();
    TaskCpuState runningCopy = TaskCpuState.newBuilder(running).build();

    CpuDecisionMaker.Outcome capped = maker.onEnvironmentChange(running, CpuDecisionMaker.Event.POOL_CAP, 2_000,
        cluster, null, pool -> 0.5);

    assertThat(running).isEqualTo(runningCopy);
    assertThat(capped.decision()).isNotNull();
    assertThat(capped.state()).isNotSameAs(running);
    assertThat(capped.state().getSpec()).isSameAs(spec);
    assertThat(capped.state().getLastDecision())
        .isEqualTo(CpuDecision.newBuilder(capped.decision()).setNode("").setTask("").build());
    assertThat(capped.decision().getNode() + "/" + capped.decision().getTask()).isEqualTo("n1/t1");
  }

  private static TaskSpec spec(double ncpus) {
    return TaskSpec.newBuilder().setNode("n1").setTask("t1").setOperation("op").setPool("pool-a").setNcpus(ncpus)
        .build();
  }

  private static CgroupSample sample(long tsMs, long cpuUsageUsec) {
    return CgroupSample.newBuilder().setNode("n1").setTask("t1").setTsMs(tsMs).setCpuUsageUsec(cpuUsageUsec)
        .setMemoryBytes(0).setState(SampleState.RUNNING).build();
  }
}
