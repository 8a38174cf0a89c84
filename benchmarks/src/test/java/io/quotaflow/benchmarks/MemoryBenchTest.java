package io.quotaflow.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import picocli.CommandLine;

class MemoryBenchTest {

  @TempDir
  Path outDir;

  @Test
  void benchPrintsEveryModeAndDelayAndWritesOneChartPerDelay() throws Exception {
    StringWriter out = new StringWriter();
    CommandLine cli = new CommandLine(new BenchCommand());
    cli.setOut(new PrintWriter(out));
    int exit = cli.execute("memory", "--seeds=1,2", "--delays=0,2", "--out-dir", outDir.toString());

    assertThat(exit).isZero();
    String text = out.toString();
    assertThat(text).contains("learned normal ", "seeds [1, 2]", "Targets at delay 0:");
    assertThat(text.lines().filter(l -> l.matches("^(OFF|COUNT|BUDGET)\\s+(-|0|2)\\s+-\\s+\\d+.*"))).hasSize(5);
    assertThat(text).doesNotContain("With the reflex", "Admission rules");
    for (int delay : new int[] {0, 2}) {
      Path chart = outDir.resolve("memory-gating-delay-" + delay + ".svg");
      assertThat(text).contains(chart.toAbsolutePath().normalize().toString());
      Document svg = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(chart.toFile());
      assertThat(svg.getElementsByTagName("polyline").getLength()).isEqualTo(3);
    }
  }

  @Test
  void withTheReflexEveryDelayGainsRowsWithItAndItsFreezes() {
    StringWriter out = new StringWriter();
    CommandLine cli = new CommandLine(new BenchCommand());
    cli.setOut(new PrintWriter(out));
    int exit = cli.execute("memory", "--seeds=1", "--delays=1", "--reflex-hz", "10", "--out-dir", outDir.toString());

    assertThat(exit).isZero();
    String text = out.toString();
    assertThat(text).contains("reflex: 10 readings/s, freeze 0 ms after the reading, lease 10000 ms");
    List<String[]> rows = text.lines().filter(l -> l.matches("^(COUNT|BUDGET)\\s+1\\s+.*"))
        .map(l -> l.trim().split("\\s+")).toList();
    assertThat(rows).extracting(r -> r[0] + " " + r[2])
        .containsExactly("COUNT -", "BUDGET -", "COUNT 10", "BUDGET 10");
    for (String[] row : rows) {
      long freezes = Long.parseLong(row[row.length - 1]);
      if (row[2].equals("-")) {
        assertThat(freezes).isZero();
      } else {
        assertThat(freezes).isPositive();
      }
    }
    long budgetWith = Long.parseLong(rows.get(3)[3]);
    long budgetWithout = Long.parseLong(rows.get(1)[3]);
    assertThat(text).contains(String.format(
        "BUDGET max <= 4500 MB at delay 1: %d MB (without the reflex %d MB): %s", budgetWith, budgetWithout,
        budgetWith <= 4500 ? "met" : "MISSED"));
    // The gate answers within a tick, long before the 10 s reflex lease.
    assertThat(text).contains(String.format("Reflex freezes thawed by their lease running out at delay 1: COUNT 0 of %s, "
        + "BUDGET 0 of %s", rows.get(2)[rows.get(2).length - 1], rows.get(3)[rows.get(3).length - 1]));
  }

  @Test
  void theFrontierMarksExactlyTheRulesNoOtherBeatsAndChartsThem() throws Exception {
    StringWriter out = new StringWriter();
    CommandLine cli = new CommandLine(new BenchCommand());
    cli.setOut(new PrintWriter(out));
    int exit = cli.execute("memory", "--seeds=1", "--delays=0", "--reflex-hz", "10", "--frontier",
        "--frontier-seeds", "3", "--reserves", "0,0.5,1", "--frontier-headroom-mb", "0,200", "--frontier-delays", "1",
        "--out-dir", outDir.toString());

    assertThat(exit).isZero();
    String text = out.toString();
    assertThat(text).contains("Admission rules, seeds 1-3, control delay 1 tick(s), reflex 10 Hz, +0 ms");
    Pattern row = Pattern.compile("^([* ])([+ ])(COUNT|BUDGET f=\\S+ headroom \\d+ MB)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)"
        + "\\s+([\\d.]+)\\s+([\\d.]+)\\s+(\\d+)$");
    List<Matcher> rules = text.lines().map(row::matcher).filter(Matcher::matches).toList();
    assertThat(rules).hasSize(1 + 3 * 2);
    for (Matcher r : rules) {
      long worst = Long.parseLong(r.group(4));
      double slowdown = Double.parseDouble(r.group(7));
      boolean beaten = rules.stream().anyMatch(o -> {
        long w = Long.parseLong(o.group(4));
        double s = Double.parseDouble(o.group(7));
        return w <= worst && s <= slowdown && (w < worst || s < slowdown);
      });
      if (r.group(1).equals("*")) {
        assertThat(beaten).as(r.group(3)).isFalse();
      } else if (!beaten) {
        // Not beaten but not marked: the same figures as a rule listed before it, which is marked.
        assertThat(rules.stream().anyMatch(o -> o.group(1).equals("*") && o.group(4).equals(r.group(4))
            && o.group(7).equals(r.group(7)))).as(r.group(3)).isTrue();
      }
      assertThat(r.group(2).equals("+")).isEqualTo(worst <= 4500 && slowdown <= 1.3);
      assertThat(Long.parseLong(r.group(5))).isBetween(1L, 3L); // the worst seed is one of those run
    }
    assertThat(text).containsPattern("Goal \\(<= 4500 MB on every seed at mean slowdown <= 1.3x\\): (met by|no rule)");
    Path chart = outDir.resolve("memory-frontier-delay-1.svg");
    assertThat(text).contains(chart.toAbsolutePath().normalize().toString());
    Document svg = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(chart.toFile());
    assertThat(svg.getElementsByTagName("polyline").getLength()).isEqualTo(2);
    assertThat(svg.getElementsByTagName("circle").getLength())
        .isEqualTo(2 * rules.stream().filter(r -> r.group(1).equals("*")).count());
  }
}
