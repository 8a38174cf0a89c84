package io.quotaflow.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.avro.internal.GateTaskRecord;
import io.quotaflow.streams.engine.memory.GateRole;
import io.quotaflow.streams.engine.memory.TaskGateState;
import io.quotaflow.streams.engine.memory.TaskMemorySpec;
import io.quotaflow.streams.engine.memory.TaskUsageStats;
import org.junit.jupiter.api.Test;

/** A task's record as the gate writes it reads back as the task, its totals and its clock, whatever its role. */
class GateRecordsTest {

  @Test
  void aTaskRecordReadsBackAsTheTaskItWasWrittenFromInEveryRole() {
    TaskMemorySpec spec = new TaskMemorySpec("t1", "op", 512L << 20, 1200L << 20, false);
    TaskUsageStats usage = new TaskUsageStats("op", 3, 900L << 20, 400L << 20, 5_000);
    for (GateRole role : GateRole.values()) {
      TaskGateState task = new TaskGateState("t1", spec, true, 300L << 20, 400L << 20, 5_000, role, 4_000, 4_500,
          true);

      GateTaskRecord record = GateRecords.task(task, usage, 5_000, 5_017);
      GateTaskRecord read = GateRecords.read("node-1/t1", record);

      assertThat(read.getRole().name()).isEqualTo(role.name());
      assertThat(GateRecords.task(read)).isEqualTo(task);
      assertThat(GateRecords.usage(read.getUsage())).isEqualTo(usage);
      assertThat(read.getGateClock().getStreamTimeMs()).isEqualTo(5_000);
      assertThat(read.getGateClock().getClockRecordTsMs()).isEqualTo(5_017);
    }
  }
}
