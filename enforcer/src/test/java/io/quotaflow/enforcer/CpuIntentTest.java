package io.quotaflow.enforcer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.cgroups.CgroupCpuWrite;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.schemas.avro.CgroupCpuSettings;
import io.quotaflow.schemas.avro.CpuDecision;
import org.junit.jupiter.api.Test;

class CpuIntentTest {

  static final DecisionRef REF = new DecisionRef("quotaflow.cpu-decisions", 0, 1, 0);

  static CpuDecision decision(long shares, long weight, long quotaUs, long periodUs) {
    return CpuDecision.newBuilder().setNode("node-1").setTask("job").setTsMs(0).setHardLimitCpu(1).setSoftLimitCpu(1)
        .setEffectiveLimitCpu(1).setReason("INITIAL").setApply(true)
        .setCgroup(new CgroupCpuSettings(shares, weight, quotaUs, periodUs)).build();
  }

  @Test
  void theCgroupRecordIsTakenAsItIs() {
    CpuIntent intent = CpuIntent.of(REF, TaskId.of("job"), decision(2, 1, 20_600, 100_000));
    assertThat(intent.settings()).isEqualTo(new CgroupCpuWrite(2, 1, 20_600, 100_000));
    assertThat(intent.apply()).isTrue();
  }

  @Test
  void valuesNoKernelAcceptsAreRefused() {
    assertThatThrownBy(() -> CpuIntent.of(REF, TaskId.of("job"), decision(0, 1, -1, 100_000)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("invalid cgroup values");
    assertThatThrownBy(() -> CpuIntent.of(REF, TaskId.of("job"), decision(2, 1, -5, 100_000)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("quota_us");
  }
}
