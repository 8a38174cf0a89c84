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

/**
 * {@code quotaflow bench enforcer}, small: every decision it publishes comes back applied, what it
 * prints adds up, and it leaves no group behind. The figures themselves are not asserted.
 */
class EnforcerBenchTest {

  private final BenchCli cli = new BenchCli();
  private final StringWriter out = cli.out;
  private final StringWriter err = cli.err;

  private int bench(String... args) {
    return cli.run(args);
  }

  @Test
  void appliesEveryDecisionOnRealGroupsPrintsTheFiguresAndRemovesThem() throws Exception {
    Sandboxes.openV1WithFreezerOrSkip().close(); // skips where v1 groups are not writable; the bench makes its own
    int exit = bench("enforcer", "--layout", "v1", "--groups", "3", "--backlog", "30", "--decisions", "20", "--rate", "200",
        "--freeze-decisions", "6");
    String printed = out.toString();
    System.out.println(printed);

    assertThat(exit).as(err + printed).isZero();
    assertThat(printed).containsPattern("First write to each group \\(saves its original values first\\): 3 of 3 applied in");
    assertThat(printed).containsPattern("Latency: 20 CPU decisions at 200/s, 20 of 20 applied");
    assertThat(printed).containsPattern("Freeze: 6 FREEZE and THAW decisions at 200/s \\(each group frozen, then thawed\\), 6 of 6 applied");
    assertThat(printed).contains("  FREEZE: ", "  THAW: ");
    // The meters saw what the results say: every CPU decision of the latency run measured its control delay.
    assertThat(printed).containsPattern("meters over this run \\(kind=CPU\\): control delay 20 decisions, mean [\\d.]+ ms \\(bench: 20,");
    assertThat(printed).containsPattern("meters over this run \\(kind=FREEZE\\): control delay 6 decisions");
    Matcher rate = Pattern.compile("Rate: 30 CPU decisions published as a backlog in [\\d.]+ s; 30 of 30 applied \\(results topic,"
        + " status APPLIED; meter quotaflow_enforcer_results\\{kind=CPU,status=APPLIED\\} \\+30\\)").matcher(printed);
    assertThat(rate.find()).as(printed).isTrue();
    // Every decision moves both cpu.shares and the quota: two files per decision.
    assertThat(printed).containsPattern("cgroup file writes/s \\(2\\.00 per decision\\)");
    assertThat(histogramTotals(printed)).containsExactly(20L, 6L);

    Matcher removed = Pattern.compile("Removed the 3 groups and (quotaflow-bench-[0-9a-f]{8})\\.").matcher(printed);
    assertThat(removed.find()).as(printed).isTrue();
    Cgroups same = Cgroups.open(new CgroupConfig(CgroupConfig.DEFAULT_ROOT, CgroupLayout.V1,
        CgroupParent.underOwnGroup(removed.group(1))));
    assertThat(same.removeParent()).as("the bench's parent %s was left behind", removed.group(1)).isFalse();
  }

  @Test
  void withoutWritableCgroupsItSaysSoAndExitsOne() {
    int exit = bench("enforcer", "--groups", "1", "--cgroup-root", "/no/such/cgroup/root");

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString()).startsWith("quotaflow bench enforcer: needs writable cgroups (root): ");
  }

  @Test
  void aBadFlagIsAUsageError() {
    assertThat(bench("enforcer", "--rate", "0")).isEqualTo(2);
    assertThat(err.toString()).contains("--groups, --backlog, --decisions and --rate must be positive, --freeze-decisions at least 0");
  }

  /** The decisions counted by each histogram printed, summed over its buckets; the last cumulative share is 100 %. */
  private static long[] histogramTotals(String printed) {
    Pattern row = Pattern.compile("^  (<=|>) \\S+ \\S+\\s+(\\d+)\\s+[\\d.]+ %\\s+([\\d.]+) %$", Pattern.MULTILINE);
    Matcher m = row.matcher(printed);
    java.util.List<Long> totals = new java.util.ArrayList<>();
    long sum = 0;
    while (m.find()) {
      sum += Long.parseLong(m.group(2));
      if (m.group(1).equals(">")) {
        assertThat(m.group(3)).isEqualTo("100.0");
        totals.add(sum);
        sum = 0;
      }
    }
    return totals.stream().mapToLong(Long::longValue).toArray();
  }
}
