package io.quotaflow.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code quotaflow bench engines}, as small as JMH allows: in this JVM, one short iteration; what it prints. */
class EnginesBenchTest {

  /** A table row: operation, state, unit, ops/s, ±, B/op, note. */
  private static final Pattern ROW = Pattern.compile(
      "(?m)^(\\S+)\\s{2,}(.+?)\\s{2,}(samples|decisions|updates)\\s+([\\d,]+)\\s+([\\d,]+|-)\\s+([\\d.]+)  (.*)$");

  /**
   * JMH refuses to start while another JMH run on the machine holds its lock file (java.io.tmpdir/jmh.lock), so
   * that two runs do not distort each other's figures. This test's figures are never read, and a benchmark running
   * elsewhere on a shared machine must not fail it.
   */
  @BeforeAll
  static void ignoreJmhLock() {
    System.setProperty("jmh.ignoreLock", "true");
  }

  private final BenchCli cli = new BenchCli();
  private final StringWriter out = cli.out;
  private final StringWriter err = cli.err;

  private int bench(String... args) {
    return cli.run(args);
  }

  @Test
  void printsOneRowPerBenchmarkWithRateAllocationAndTheCpuMonitorGoal() {
    int exit = bench("engines", "--forks", "0", "--warmup-iterations", "0", "--measurement-iterations", "1",
        "--measurement-time-ms", "300", "--include", "CpuMonitorBenchmark|IntegralPoolsBenchmark");
    System.out.println(out);

    assertThat(exit).as(err.toString()).isZero();
    assertThat(out.toString()).contains("quotaflow bench engines: JMH, 1 thread (rates are per core), 0 fork(s)")
        .containsPattern("engine\\.operation\\s+state\\s+unit\\s+ops/s per core\\s+± \\(99\\.9 %\\)\\s+B/op");
    List<Matcher> rows = new ArrayList<>();
    Matcher m = ROW.matcher(out.toString());
    while (m.find()) {
      rows.add(ROW.matcher(m.group()));
      rows.get(rows.size() - 1).find();
    }
    assertThat(rows).extracting(r -> r.group(1) + " " + r.group(2).trim()).containsExactly(
        "JobCpuMonitor.step 5,000 tasks", "IntegralPools.update 10 pools", "IntegralPools.update 100 pools");
    for (Matcher row : rows) {
      assertThat(number(row.group(4))).as(row.group()).isPositive();
    }
    assertThat(rows).extracting(r -> r.group(5)).as("one iteration: JMH gives no error").containsOnly("-");
    assertThat(rows.get(0).group(3)).isEqualTo("samples");
    double monitorPerS = number(rows.get(0).group(4));
    assertThat(rows.get(0).group(7)).isEqualTo("goal >= 5,000,000/s: " + (monitorPerS >= 5_000_000 ? "met" : "MISSED"));
    for (int i = 1; i < 3; i++) {
      Matcher row = rows.get(i);
      int pools = Integer.parseInt(row.group(2).trim().split(" ")[0]);
      double poolsPerS = number(row.group(7).replaceFirst("^= ([\\d,]+) pools/s$", "$1"));
      // Both printed rounded to a whole number: within one update's pools of each other.
      assertThat(poolsPerS).as(row.group()).isCloseTo(number(row.group(4)) * pools, Offset.offset(pools * 1.0));
      assertThat(Double.parseDouble(row.group(6))).as("an update allocates its result: " + row.group()).isPositive();
    }
  }

  @Test
  void badFlagsSayWhatIsWrongAndExitTwo() {
    assertThat(bench("engines", "--forks", "-1")).isEqualTo(2);
    assertThat(err.toString()).contains("--forks and --warmup-iterations must be at least 0");

    assertThat(bench("engines", "--forks", "0", "--include", "NoSuchBenchmark")).isEqualTo(2);
    assertThat(err.toString()).contains("--include NoSuchBenchmark matches no benchmark");
  }

  private static double number(String printed) {
    return Double.parseDouble(printed.replace(",", ""));
  }
}
