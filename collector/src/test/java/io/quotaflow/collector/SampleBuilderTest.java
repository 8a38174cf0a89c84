package io.quotaflow.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.cgroups.CgroupStats;
import io.quotaflow.cgroups.FreezerState;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.SampleState;
import org.junit.jupiter.api.Test;

class SampleBuilderTest {

  final SampleBuilder builder = new SampleBuilder("node-1");
  final TaskId task = TaskId.of("job-7");

  static CgroupStats full(FreezerState freezer) {
    return new CgroupStats(2_500_000, 7L, 3_000L, 1_048_576L, 12_288L, 2_097_152L, 50_000L, 100_000L, freezer);
  }

  @Test
  void everyReadingLandsInItsContractField() {
    CgroupSample sample = builder.running(task, 1_700_000_000_123L, full(FreezerState.THAWED), 42);
    assertThat(sample).isEqualTo(new CgroupSample("node-1", "job-7", 1_700_000_000_123L, 2_500_000L, 1_048_576L,
        12_288L, 2_097_152L, 7L, 3_000L, 0.5, SampleState.RUNNING, 42L));
    assertThat(builder.keyOf(task)).isEqualTo("node-1/job-7");
  }

  @Test
  void valuesTheNodeCannotProvideStayNullOrTakeTheContractsDefault() {
    // The v2 tree here: no memory controller, no cpu controller, no quota.
    CgroupStats bare = new CgroupStats(900, null, null, null, null, null, null, null, null);
    CgroupSample sample = builder.running(task, 5, bare, 0);
    assertThat(sample.getMemoryBytes()).isZero();
    assertThat(sample.getMemoryAnonBytes()).isNull();
    assertThat(sample.getMemoryPeakBytes()).isNull();
    assertThat(sample.getNrThrottled()).isZero();
    assertThat(sample.getThrottledUsec()).isNull();
    assertThat(sample.getCpuQuotaCores()).isNull();
    assertThat(sample.getState()).isEqualTo(SampleState.RUNNING);
  }

  @Test
  void onlyACompletedFreezeIsFrozen() {
    assertThat(builder.running(task, 1, full(FreezerState.FROZEN), 0).getState()).isEqualTo(SampleState.FROZEN);
    assertThat(builder.running(task, 1, full(FreezerState.FREEZING), 0).getState()).isEqualTo(SampleState.RUNNING);
    assertThat(builder.running(task, 1, full(FreezerState.THAWED), 0).getState()).isEqualTo(SampleState.RUNNING);
  }

  @Test
  void goneRepeatsTheLastCountersSoNoRateJumps() {
    CgroupSample gone = builder.gone(task, 99, full(FreezerState.FROZEN), 8);
    assertThat(gone.getState()).isEqualTo(SampleState.GONE);
    assertThat(gone.getTsMs()).isEqualTo(99);
    assertThat(gone.getSeq()).isEqualTo(8);
    assertThat(gone.getCpuUsageUsec()).isEqualTo(2_500_000);
    assertThat(gone.getMemoryAnonBytes()).isEqualTo(12_288);
  }

  @Test
  void goneBeforeTheFirstReadReportsZeros() {
    CgroupSample gone = builder.gone(task, 99, null, 3);
    assertThat(gone).isEqualTo(new CgroupSample("node-1", "job-7", 99L, 0L, 0L, null, null, 0L, null, null,
        SampleState.GONE, 3L));
  }

  @Test
  void aNodeIdMustBeSafe() {
    assertThatThrownBy(() -> new SampleBuilder("a/b")).hasMessageContaining("node");
    assertThatThrownBy(() -> new SampleBuilder("..")).hasMessageContaining("node");
  }
}
