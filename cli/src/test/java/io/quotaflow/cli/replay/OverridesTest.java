package io.quotaflow.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.process.UsageException;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.JobCpuMonitorConfig;
import io.quotaflow.schemas.avro.PeakGatingMode;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.TaskSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class OverridesTest {

  private static TaskSpec spec(String node, String task) {
    return TaskSpec.newBuilder().setNode(node).setTask(task).setNcpus(2)
        .setJobCpuMonitor(JobCpuMonitorConfig.newBuilder().setEnableCpuReclaim(true).build()).build();
  }

  @Test
  void theIssuesExamplesApplyToTheirRecordsAndLeaveTheRest() {
    Overrides o = Overrides.parse(List.of("cluster.peak_gating_mode=BUDGET", "pool.research.weight=2",
        "task.node-1/job-42.job_cpu_monitor.decrease_coefficient=0.9"));

    assertThat(o.cluster(ClusterConfig.newBuilder().setCluster("main").setTotalCpu(8.0).build()))
        .satisfies(c -> assertThat(c.getPeakGatingMode()).isEqualTo(PeakGatingMode.BUDGET))
        .satisfies(c -> assertThat(c.getTotalCpu()).isEqualTo(8.0));
    assertThat(o.pool("research", PoolConfig.newBuilder().setPool("research").build()).getWeight()).isEqualTo(2.0);
    assertThat(o.pool("prod", PoolConfig.newBuilder().setPool("prod").build()).getWeight()).isEqualTo(1.0);
    TaskSpec changed = o.task("node-1/job-42", spec("node-1", "job-42"));
    assertThat(changed.getJobCpuMonitor().getDecreaseCoefficient()).isEqualTo(0.9);
    assertThat(changed.getJobCpuMonitor().getEnableCpuReclaim()).as("the rest of the nested record kept").isTrue();
    assertThat(o.task("node-1/job-43", spec("node-1", "job-43")).getJobCpuMonitor().getDecreaseCoefficient()).isEqualTo(0.97);
    assertThat(o.pool("research", null)).as("a tombstone stays one").isNull();
  }

  @Test
  void everyTaskAndIdsWithDots() {
    Overrides o = Overrides.parse(List.of("task.*.job_cpu_monitor.smoothing_factor=0.3", "pool.team.a.weight=4"));

    assertThat(o.task("n/t", spec("n", "t")).getJobCpuMonitor().getSmoothingFactor()).isEqualTo(0.3);
    assertThat(o.namedPools()).containsExactly("team.a");
  }

  @Test
  void unknownKeysFieldsAndBadValuesAreRefusedNamingTheArgument() {
    assertThatThrownBy(() -> Overrides.parse(List.of("cluster.nope=1"))).isInstanceOf(UsageException.class)
        .hasMessageContaining("--set cluster.nope=1: unknown ClusterConfig field 'nope'");
    assertThatThrownBy(() -> Overrides.parse(List.of("node.n1.cpus=2"))).isInstanceOf(UsageException.class)
        .hasMessageContaining("unknown key 'node.n1.cpus'");
    assertThatThrownBy(() -> Overrides.parse(List.of("pool.research.weight=-1"))).isInstanceOf(UsageException.class)
        .hasMessageContaining("--set pool.research.weight=-1");
    assertThatThrownBy(() -> Overrides.parse(List.of("task.n/t.job_cpu_monitor.smoothing_factor=abc")))
        .isInstanceOf(UsageException.class).hasMessageContaining("smoothing_factor");
    assertThatThrownBy(() -> Overrides.parse(List.of("task.no-slash.ncpus=1"))).isInstanceOf(UsageException.class)
        .hasMessageContaining("--set task.no-slash.ncpus=1");
    assertThatThrownBy(() -> Overrides.parse(List.of("cluster.enforcement"))).isInstanceOf(UsageException.class)
        .hasMessageContaining("expected cluster.FIELD=VALUE");
  }

  @Test
  void aRecordTheOverrideMakesInvalidIsRefusedNamingTheOverride() {
    Overrides o = Overrides.parse(List.of("task.*.memory_peak_bytes=1000"));
    TaskSpec recorded = TaskSpec.newBuilder(spec("n", "t")).setMemoryNormalBytes(5000L).build();

    assertThatThrownBy(() -> o.task("n/t", recorded)).isInstanceOf(UsageException.class)
        .hasMessageContaining("--set task.*.memory_peak_bytes=1000").hasMessageContaining("below memory_normal_bytes");
  }
}
