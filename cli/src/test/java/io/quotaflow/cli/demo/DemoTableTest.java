package io.quotaflow.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class DemoTableTest {

  private static final long MIB = 1 << 20;

  @Test
  void rendersAHeaderAndOneAlignedLinePerTask() {
    String table = DemoTable.render(List.of(
        new TaskRow("demo-busy", 0.987, 1.0, 0.6667, 666L, null, 48 * MIB, null, null, "APPLIED", 3_400L),
        new TaskRow("demo-zero", 0.2, 0.0, 0.0, 2L, 0.206, 48 * MIB, null, null, "APPLIED", 185_000L),
        new TaskRow("demo-peak-a", 0.1, 1.0, 1.0, 1000L, null, 160 * MIB, "holding", null, "UNCHANGED", 1_000L),
        new TaskRow("demo-peak-c", 0.0, 1.0, 1.0, 1000L, null, 96 * MIB, "waiting", 1, "UNCHANGED", 9_000L)));
    assertThat(table.lines()).containsExactly(
        "task            usage  soft/effective  shares  quota   memory     gate queue  last action",
        "demo-busy        0.99     1.00 / 0.67     666   none   48 MiB        -     -  APPLIED 3s ago",
        "demo-zero        0.20     0.00 / 0.00       2   0.21   48 MiB        -     -  APPLIED 3m ago",
        "demo-peak-a      0.10     1.00 / 1.00    1000   none  160 MiB  holding     -  UNCHANGED 1s ago",
        "demo-peak-c      0.00     1.00 / 1.00    1000   none   96 MiB  waiting     1  UNCHANGED 9s ago");
  }

  @Test
  void whatIsNotKnownYetIsADash() {
    String table = DemoTable.render(List.of(
        new TaskRow("demo-idle", null, null, null, null, null, null, null, null, null, null)));
    assertThat(table.lines()).element(1)
        .isEqualTo("demo-idle           -               -       -      -        -        -     -  -");
  }

  @Test
  void aResultWithoutAnAgeShowsOnlyItsStatus() {
    assertThat(DemoTable.cells(new TaskRow("t", 0.0, 1.0, 1.0, 1000L, null, null, "running", null, "DRY_RUN", null)))
        .containsExactly("t", "0.00", "1.00 / 1.00", "1000", "none", "-", "running", "-", "DRY_RUN");
  }
}
