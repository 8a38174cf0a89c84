package io.quotaflow.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.CgroupParent;
import io.quotaflow.cgroups.Cgroups;
import io.quotaflow.cgroups.Sandboxes;
import java.io.StringWriter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code quotaflow bench cgroups}, small: what it prints, and that it leaves no group behind. */
class CgroupsBenchTest {

  private final BenchCli cli = new BenchCli();
  private final StringWriter out = cli.out;
  private final StringWriter err = cli.err;

  private int bench(String... args) {
    return cli.run(args);
  }

  @Test
  void readsRealGroupsPrintsTheCostAndRemovesThem() throws Exception {
    Sandboxes.openOrSkip(CgroupLayout.AUTO).close(); // skips where cgroups are not writable; the bench makes its own
    int exit = bench("cgroups", "--groups", "3", "--rounds", "2");

    assertThat(exit).as(err.toString()).isZero();
    assertThat(out.toString()).containsPattern(
        "(V1|V2): 3 groups x 2 rounds every 0 ms: [\\d.]+ ms CPU per round \\([\\d.]+ % of one core at 1 Hz\\), [\\d.]+ ms wall,"
            + " [\\d.]+ us CPU and \\d+ bytes allocated per group read");
    Matcher removed = Pattern.compile("Removed the 3 groups and (quotaflow-bench-[0-9a-f]{8})\\.").matcher(out.toString());
    assertThat(removed.find()).as(out.toString()).isTrue();
    // The same parent, opened as the bench opened it: removing it finds nothing left to remove.
    Cgroups same = Cgroups.open(new CgroupConfig(CgroupConfig.DEFAULT_ROOT, CgroupLayout.AUTO,
        CgroupParent.underOwnGroup(removed.group(1))));
    assertThat(same.removeParent()).as("the bench's parent %s was left behind", removed.group(1)).isFalse();
  }

  @Test
  void withoutWritableCgroupsItSaysSoAndExitsOne() {
    int exit = bench("cgroups", "--groups", "1", "--rounds", "1", "--cgroup-root", "/no/such/cgroup/root");

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString()).startsWith("quotaflow bench cgroups: needs writable cgroups (root): ");
  }

  @Test
  void nonPositiveCountsAreAUsageError() {
    assertThat(bench("cgroups", "--rounds", "0")).isEqualTo(2);
    assertThat(err.toString()).contains("--groups and --rounds must be positive");
  }
}
