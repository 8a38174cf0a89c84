package io.quotaflow.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cli.replay.InputRecord.Kind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SilentNodesTest {

  private static InputRecord sample(String node, int partition, long tMs) {
    return new InputRecord(Kind.SAMPLE, partition, tMs, tMs, node + "/t", null);
  }

  @Test
  void aNodeSilentWhileAnotherPartitionGoesOnIsFlagged() {
    List<InputRecord> merged = new ArrayList<>();
    for (long t = 0; t <= 10_000; t += 1_000) {
      merged.add(sample("a", 0, t));
      if (t < 4_000 || t > 7_000) {
        merged.add(sample("b", 1, t)); // b silent from 4 s to 7 s while a goes on
      }
    }

    assertThat(SilentNodes.movedByOtherPartitions(merged, 2)).containsExactly("b");
  }

  @Test
  void aPauseOfEveryPartitionEndingAtOneTimeOrASilentNodeInTheSamePartitionIsNot() {
    List<InputRecord> merged = new ArrayList<>();
    for (long t = 0; t <= 10_000; t += 1_000) {
      if (t >= 4_000 && t <= 7_000) {
        continue; // everybody pauses and resumes at 8 s: live, every partition's punctuator fires at 8 s too
      }
      merged.add(sample("a", 0, t));
      merged.add(sample("b", 1, t));
      if (t < 2_000 || t > 9_000) {
        merged.add(sample("c", 0, t)); // silent, but its partition's own records move it live as in the replay
      }
    }

    assertThat(SilentNodes.movedByOtherPartitions(merged, 2)).isEmpty();
  }

  @Test
  void partitionsResumingAtDifferentTimesAfterAPauseFlagTheLaterOnes() {
    List<InputRecord> merged = new ArrayList<>();
    for (long t = 0; t <= 3_000; t += 1_000) {
      merged.add(sample("a", 0, t));
      merged.add(sample("b", 1, t));
    }
    merged.add(sample("a", 0, 8_000));
    merged.add(sample("b", 1, 8_005)); // appended 5 ms after a's: live, b's gate moves 5 ms later than in the replay

    assertThat(SilentNodes.movedByOtherPartitions(merged, 2)).containsExactly("b");
  }
}
