package io.quotaflow.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class DemoTableTest {

  private static final long MIB = 1 << 20;

  @Test
  void rendersAHeaderAndOneAlignedLinePerTaskThenThePools() {
    String table = DemoTable.render(new DemoRows(List.of(
        new TaskRow("demo-busy", "relaxed", 0.987, 1.0, 0.6667, 666L, null, 48 * MIB, null, null, "APPLIED", 3_400L),
        new TaskRow("demo-zero", "relaxed", 0.2, 0.0, 0.0, 2L, 0.206, 48 * MIB, null, null, "APPLIED", 185_000L),
        new TaskRow("demo-peak-a", "relaxed", 0.1, 1.0, 1.0, 1000L, null, 160 * MIB, "holding", null, "UNCHANGED", 1_000L),
        new TaskRow("demo-peak-c", "relaxed", 0.0, 1.0, 1.0, 1000L, null, 96 * MIB, "waiting", 1, "UNCHANGED", 9_000L)),
        List.of(new PoolRow("burst", "BURST", 0.5, 1.0, 1.0, 1.0, 1.0, 23.66, 39.4),
            new PoolRow("relaxed", "RELAXED", 0.3, null, 1.5, 0.5, 0.3, 3.0, null))));
    assertThat(table.lines()).containsExactly(
        "task           pool      usage  soft/effective  shares  quota   memory     gate queue  last action",
        "demo-busy      relaxed    0.99     1.00 / 0.67     666   none   48 MiB        -     -  APPLIED 3s ago",
        "demo-zero      relaxed    0.20     0.00 / 0.00       2   0.21   48 MiB        -     -  APPLIED 3m ago",
        "demo-peak-a    relaxed    0.10     1.00 / 1.00    1000   none  160 MiB  holding     -  UNCHANGED 1s ago",
        "demo-peak-c    relaxed    0.00     1.00 / 1.00    1000   none   96 MiB  waiting     1  UNCHANGED 9s ago",
        "",
        "pool           type       flow  burst  demand  fair share  integral       volume  burst lasts",
        "burst          BURST      0.50   1.00    1.00        1.00      1.00   23.7 cpu·s  39s",
        "relaxed        RELAXED    0.30      -    1.50        0.50      0.30    3.0 cpu·s  -");
  }

  @Test
  void whatIsNotKnownYetIsADash() {
    String table = DemoTable.render(new DemoRows(List.of(
        new TaskRow("demo-idle", "relaxed", null, null, null, null, null, null, null, null, null, null)),
        List.of(new PoolRow("burst", "BURST", 0.5, 1.0, null, null, null, null, null))));
    assertThat(table.lines()).element(1)
        .isEqualTo("demo-idle      relaxed       -               -       -      -        -        -     -  -");
    assertThat(table.lines()).element(4)
        .isEqualTo("burst          BURST      0.50   1.00       -           -         -            -  -");
  }

  @Test
  void aResultWithoutAnAgeShowsOnlyItsStatus() {
    assertThat(DemoTable.cells(new TaskRow("t", "p", 0.0, 1.0, 1.0, 1000L, null, null, "running", null, "DRY_RUN", null)))
        .containsExactly("t", "p", "0.00", "1.00 / 1.00", "1000", "none", "-", "running", "-", "DRY_RUN");
  }

  @Test
  void noPoolsNoPoolTable() {
    assertThat(DemoTable.render(DemoRows.NONE).lines()).hasSize(1);
  }
}
