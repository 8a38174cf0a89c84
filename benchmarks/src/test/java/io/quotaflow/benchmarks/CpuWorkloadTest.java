package io.quotaflow.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.schemas.Ids;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.TaskSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CpuWorkloadTest {

  @Test
  void everyTaskHasAValidDistinctKeyOnItsNode() {
    CpuWorkload workload = new CpuWorkload(3, 4, 16, 1);

    Set<String> keys = new HashSet<>();
    for (int task = 0; task < workload.size(); task++) {
      String key = workload.key(task);
      keys.add(key);
      String[] parts = key.split("/");
      assertThat(parts).hasSize(2);
      assertThat(Ids.isValid(parts[0])).as(key).isTrue();
      assertThat(Ids.isValid(parts[1])).as(key).isTrue();
      TaskSpec spec = workload.spec(task, 0);
      assertThat(spec.getNode() + "/" + spec.getTask()).isEqualTo(key);
    }
    assertThat(keys).hasSize(12);
    assertThat(workload.nodeStatuses(0)).extracting(s -> s.getNode())
        .containsExactly("bench-node-0000", "bench-node-0001", "bench-node-0002");
  }

  @Test
  void aTaskIsBusyThenIdleForThePhaseLengthAndItsCounterGrowsByItsUsage() {
    CpuWorkload workload = new CpuWorkload(1, 1, 4, 7);
    List<Boolean> busy = new ArrayList<>();
    List<Long> usage = new ArrayList<>();
    long tsMs = 1_000_000;
    for (int i = 0; i < 16; i++, tsMs += 100) {
      busy.add(workload.busy(0));
      CgroupSample sample = workload.next(0, tsMs);
      usage.add(sample.getCpuUsageUsec());
      assertThat(sample.getTsMs()).isEqualTo(tsMs);
    }
    // Four samples one way, four the other, whatever the offset.
    for (int i = 0; i + 4 < busy.size(); i++) {
      long changes = java.util.stream.IntStream.range(i, i + 4).filter(j -> !busy.get(j).equals(busy.get(j + 1))).count();
      assertThat(changes).isLessThanOrEqualTo(1);
    }
    assertThat(busy).contains(true, false);
    assertThat(usage.get(0)).isZero();
    for (int i = 1; i < usage.size(); i++) {
      // The 100 ms up to a sample are spent in that sample's phase: a full CPU is 100,000 µs, idle 2,000 µs.
      assertThat(usage.get(i) - usage.get(i - 1)).isEqualTo(busy.get(i) ? 100_000 : 2_000);
    }
  }

  @Test
  void theSameSeedGivesTheSamePhasesAndSeqCountsEverySample() {
    CpuWorkload a = new CpuWorkload(2, 5, 16, 42);
    CpuWorkload b = new CpuWorkload(2, 5, 16, 42);
    for (int task = 0; task < a.size(); task++) {
      assertThat(a.busy(task)).isEqualTo(b.busy(task));
    }
    assertThat(a.next(0, 1).getSeq()).isZero();
    assertThat(a.next(3, 1).getSeq()).isEqualTo(1);
  }

  @Test
  void refusesAnEmptyCluster() {
    assertThatThrownBy(() -> new CpuWorkload(0, 5, 16, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new CpuWorkload(1, 5, 0, 1)).isInstanceOf(IllegalArgumentException.class);
  }
}
