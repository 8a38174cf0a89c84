package io.quotaflow.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.avro.CgroupCpuSettings;
import io.quotaflow.schemas.avro.CpuDecision;
import java.util.List;
import org.junit.jupiter.api.Test;

class DecisionDiffTest {

  private static Timed<CpuDecision> d(long ts, double effective) {
    return new Timed<>("n/t", ts, CpuDecision.newBuilder().setNode("n").setTask("t").setTsMs(ts).setHardLimitCpu(2)
        .setSoftLimitCpu(1).setEffectiveLimitCpu(effective).setReason("DECREASE").setApply(true)
        .setCgroup(CgroupCpuSettings.newBuilder().setShares(512).setWeight(20).setQuotaUs(-1).setPeriodUs(100000).build()).build());
  }

  @Test
  void equalSequencesAreIdentical() {
    assertThat(DecisionDiff.compare(List.of(d(1, 1.0), d(2, 0.9)), List.of(d(1, 1.0), d(2, 0.9))))
        .isEqualTo(ReplayReport.Diff.identical(2));
  }

  @Test
  void theLastBitOfADoubleIsADifferenceAndItIsNamed() {
    ReplayReport.Diff diff = DecisionDiff.compare(List.of(d(1, 0.3)), List.of(d(1, 0.1 + 0.2)));

    assertThat(diff.identical()).isFalse();
    assertThat(diff.firstDifference()).contains("record 1").contains("effective_limit_cpu 0.3 recorded, 0.30000000000000004 replayed");
    assertThat(diff.differingFields()).containsExactly("effective_limit_cpu");
  }

  @Test
  void aMissingOrExtraRecordIsNamedWithItsTime() {
    assertThat(DecisionDiff.compare(List.of(d(1, 1.0), d(2000, 0.9)), List.of(d(1, 1.0))).firstDifference())
        .startsWith("record 2 at 1970-01-01T00:00:02Z was recorded and not replayed");
    assertThat(DecisionDiff.compare(List.of(), List.of(d(1000, 1.0))).firstDifference())
        .startsWith("record 1 at 1970-01-01T00:00:01Z was replayed and not recorded");
  }
}
