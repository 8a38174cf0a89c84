package io.quotaflow.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cli.replay.InputRecord.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;

class InputMergeTest {

  private static InputRecord r(Kind kind, int partition, long offset, long ts) {
    return new InputRecord(kind, partition, offset, ts, kind + "-" + partition + "-" + offset, null);
  }

  @Test
  void mergesByTheNextRecordsTimestampKeepingEachPartitionsOffsetOrder() {
    List<InputRecord> p0 = List.of(r(Kind.SAMPLE, 0, 0, 10), r(Kind.SAMPLE, 0, 1, 30), r(Kind.SAMPLE, 0, 2, 20));
    List<InputRecord> p1 = List.of(r(Kind.SAMPLE, 1, 0, 15), r(Kind.SAMPLE, 1, 1, 25));

    List<String> order = InputMerge.merge(List.of(p0, p1)).stream().map(InputRecord::key).toList();

    // 20 after 30: a partition is read in offset order, as the live app read it, even where its times go back
    assertThat(order).containsExactly("SAMPLE-0-0", "SAMPLE-1-0", "SAMPLE-1-1", "SAMPLE-0-1", "SAMPLE-0-2");
  }

  @Test
  void equalTimesPutConfigsBeforeWhatTheyGovern() {
    List<InputRecord> samples = List.of(r(Kind.SAMPLE, 0, 0, 10));
    List<InputRecord> specs = List.of(r(Kind.TASK, 0, 0, 10));
    List<InputRecord> cluster = List.of(r(Kind.CLUSTER, 0, 0, 10));
    List<InputRecord> pools = List.of(r(Kind.POOL, 0, 0, 10));
    List<InputRecord> nodes = List.of(r(Kind.NODE, 1, 0, 10));

    List<Kind> order = InputMerge.merge(List.of(samples, specs, nodes, pools, cluster)).stream().map(InputRecord::kind).toList();

    assertThat(order).containsExactly(Kind.CLUSTER, Kind.POOL, Kind.NODE, Kind.TASK, Kind.SAMPLE);
  }
}
