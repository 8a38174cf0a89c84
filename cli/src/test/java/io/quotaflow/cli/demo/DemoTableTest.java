package io.quotaflow.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class DemoTableTest {

  @Test
  void rendersAHeaderAndOneAlignedLinePerTask() {
    String table = DemoTable.render(List.of(
        new TaskRow("demo-busy", 0.987, 1.0, 0.6667, 666L, null, "APPLIED", 3_400L),
        new TaskRow("demo-zero", 0.2, 0.0, 0.0, 2L, 0.206, "APPLIED", 185_000L)));
    assertThat(table.lines()).containsExactly(
        "task            usage  soft/effective  shares  quota  last action",
        "demo-busy        0.99     1.00 / 0.67     666   none  APPLIED 3s ago",
        "demo-zero        0.20     0.00 / 0.00       2   0.21  APPLIED 3m ago");
  }

  @Test
  void whatIsNotKnownYetIsADash() {
    String table = DemoTable.render(List.of(new TaskRow("demo-idle", null, null, null, null, null, null, null)));
    assertThat(table.lines()).element(1).isEqualTo("demo-idle           -               -       -      -  -");
  }

  @Test
  void aResultWithoutAnAgeShowsOnlyItsStatus() {
    assertThat(DemoTable.cells(new TaskRow("t", 0.0, 1.0, 1.0, 1000L, null, "DRY_RUN", null)))
        .containsExactly("t", "0.00", "1.00 / 1.00", "1000", "none", "DRY_RUN");
  }
}
