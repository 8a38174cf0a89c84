package io.quotaflow.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cli.replay.InputRecord.Kind;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The enforcers' reflex freezes are inputs of the replay as of the live app: the gate adopts them the same way. */
class ReplayRunReflexTest {

  private static final long T0 = 1_700_000_000_000L;
  private static final long MB = 1L << 20;

  private static InputRecord spec(String task, long offset) {
    return new InputRecord(Kind.TASK, 0, offset, T0, "n1/" + task, TaskSpec.newBuilder().setNode("n1").setTask(task)
        .setNcpus(1).setPool("batch").setMemoryNormalBytes(100 * MB).build());
  }

  private static InputRecord sample(String task, long offset, long tsMs, long anonBytes) {
    return new InputRecord(Kind.SAMPLE, 0, offset, tsMs, "n1/" + task, CgroupSample.newBuilder().setNode("n1")
        .setTask(task).setTsMs(tsMs).setCpuUsageUsec(0).setMemoryBytes(anonBytes).setMemoryAnonBytes(anonBytes)
        .setState(SampleState.RUNNING).setSeq(offset).build());
  }

  @Test
  void aRecordedReflexFreezeIsAdoptedInTheReplayAsLive() {
    List<InputRecord> merged = new ArrayList<>(List.of(spec("a", 0), spec("b", 1)));
    merged.add(sample("a", 0, T0, 100 * MB));
    merged.add(sample("b", 1, T0, 100 * MB));
    merged.add(sample("a", 2, T0 + 1000, 120 * MB)); // a holds the one slot
    merged.add(new InputRecord(Kind.RESULT, 0, 0, T0 + 1400, "n1/b", EnforcementResult.newBuilder().setNode("n1")
        .setTask("b").setTsMs(T0 + 1400).setKind(EnforcementKind.FREEZE).setStatus(EnforcementStatus.REFLEX_FROZEN)
        .setReadFrozen(true).setReadMemoryBytes(115 * MB).setDecisionTopic("quotaflow.gate-tables")
        .setDecisionPartition(0).setDecisionOffset(3).build()));

    ReplayRun.Replayed replayed = ReplayRun.run(merged, Overrides.NONE, 1, T0, T0 + 60_000);

    assertThat(replayed.freeze()).extracting(Timed::key).containsExactly("n1/b");
    FreezeDecision adopted = replayed.freeze().get(0).value();
    assertThat(adopted.getReason()).isEqualTo("REFLEX_ADOPTED");
    assertThat(replayed.freeze().get(0).timestampMs()).isEqualTo(T0 + 1400);
    assertThat(replayed.rejected()).isZero();
  }
}
