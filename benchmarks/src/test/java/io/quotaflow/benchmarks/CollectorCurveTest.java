package io.quotaflow.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quotaflow.cgroups.CgroupVersion;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import picocli.CommandLine;

/** The arithmetic, table and chart of {@code quotaflow bench collector --groups A,B,...}, and its bad input; no cgroups. */
class CollectorCurveTest {

  private static final double SECOND = 1e9;

  @Test
  void threadsSplitIntoTheCollectorsOwnJitGcAndTheRest() {
    // Names as ThreadCpu gives them: the kernel's 15-character comm, trailing numbers dropped.
    CollectorCurve.Split split = CollectorCurve.Split.of(Map.of(
        "qf-collector-sa", (long) (1.0 * SECOND),
        "kafka-producer-", (long) (0.25 * SECOND),
        "qf-collector-pu", (long) (0.125 * SECOND),
        "C1 CompilerThre", (long) (0.5 * SECOND),
        "C2 CompilerThre", (long) (0.25 * SECOND),
        "GC Thread", (long) (0.2 * SECOND),
        "G1 Conc", (long) (0.05 * SECOND),
        "VM Thread", (long) (0.1 * SECOND)), 3.0);

    assertThat(split.samplerS()).isEqualTo(1.0);
    assertThat(split.producerS()).isEqualTo(0.25);
    assertThat(split.publisherS()).isEqualTo(0.125);
    assertThat(split.jitS()).isEqualTo(0.75);
    assertThat(split.gcS()).isCloseTo(0.25, within(1e-9));
    // The process's 3 s less the 2.375 s named above: VM Thread and the tick rounding of /proc/<pid>/stat.
    assertThat(split.restS()).isCloseTo(0.625, within(1e-9));
  }

  @Test
  void figuresPerRoundPerGroupAndPerThousandGroups() {
    // 5,000 groups, 1 s period, 60 s window with 6 s of process CPU over 60 rounds.
    CollectorCurve.Point point = point(5000, 60, 6, 60);

    assertThat(point.percentOfCore()).isCloseTo(10.0, within(1e-9));
    assertThat(point.cpuPerRoundMs()).isCloseTo(100.0, within(1e-9));
    assertThat(point.percentPer1000Groups()).isCloseTo(2.0, within(1e-9));
    assertThat(point.microsPerGroupPerRound()).isCloseTo(20.0, within(1e-9));
    assertThat(point.expectedRounds()).isCloseTo(60.0, within(1e-9));
  }

  @Test
  void aStraightLineThroughTheCurveGivesTheFixedCostAndTheCostPerThousandGroups() {
    // 1 % fixed + 2 % per 1,000 groups: 2 %, 3 %, 5 % at 500, 1,000, 2,000 groups; 2,000 measured 0.3 points high.
    List<CollectorCurve.Point> exact = List.of(point(500, 100, 2, 100), point(1000, 100, 3, 100), point(2000, 100, 5, 100));
    CollectorCurve.Fit line = CollectorCurve.Fit.of(exact);

    assertThat(line.fixedPercent()).isCloseTo(1.0, within(1e-9));
    assertThat(line.percentPer1000Groups()).isCloseTo(2.0, within(1e-9));
    assertThat(line.residualPercent(point(2000, 100, 5.3, 100))).isCloseTo(0.3, within(1e-9));
    assertThat(line.describe(exact)).isEqualTo("Straight line (least squares): 1.00 % of one core + 2.00 % per 1,000 groups;"
        + " off the line by +0.00 (500) +0.00 (1,000) +0.00 (2,000) points.");
  }

  @Test
  void oneTableRowPerPointInOrder() {
    String table = CollectorCurve.table(List.of(point(500, 60, 0.6, 60), point(5000, 60, 6, 58)));

    String[] lines = table.split("\n");
    assertThat(lines).hasSize(4);
    assertThat(lines[0]).startsWith("| groups | process CPU, % of one core | CPU per round | per 1,000 groups");
    int columns = lines[0].split("\\|", -1).length;
    assertThat(lines[1].split("\\|", -1)).hasSize(columns);
    assertThat(lines[2]).startsWith("| 500 | 1.00 % | 10.0 ms | 2.00 % | 20.0 |").contains("| 60 / 60 |");
    assertThat(lines[3].split("\\|", -1)).hasSize(columns);
    // 6 s over 58 rounds: 103.4 ms per round; 58 of the 60 rounds the window holds.
    assertThat(lines[3]).startsWith("| 5,000 | 10.00 % | 103.4 ms | 2.00 % | 20.7 |").contains("| 58 / 60 |");
  }

  @Test
  void theChartHasOneLineForTheProcessAndOneForTheSamplerWithAPointPerCount() throws Exception {
    String svg = CollectorCurve.chart(List.of(point(500, 60, 0.6, 60), point(1000, 60, 1.2, 60),
        point(5000, 60, 6, 60)), "sub & title");

    Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    assertThat(document.getElementsByTagName("polyline").getLength()).isEqualTo(2);
    assertThat(document.getElementsByTagName("circle").getLength()).isEqualTo(6);
    assertThat(document.getDocumentElement().getTextContent()).contains("sub & title").contains("5,000");
  }

  @Test
  void aCountBelowOneOrNotANumberIsAUsageError() {
    for (String groups : List.of("0", "x", "500,0", "500,-1")) {
      StringWriter err = new StringWriter();
      int exit = new CommandLine(new BenchCommand()).setOut(new PrintWriter(new StringWriter(), true))
          .setErr(new PrintWriter(err, true)).execute("collector", "--groups", groups);

      assertThat(exit).as(groups).isEqualTo(2);
      assertThat(err.toString()).as(groups).contains("--groups");
    }
  }

  @Test
  void aKafkaConfigFileThatCannotBeReadIsAUsageErrorBeforeAnyGroupIsMade() {
    StringWriter err = new StringWriter();
    int exit = new CommandLine(new BenchCommand()).setOut(new PrintWriter(new StringWriter(), true))
        .setErr(new PrintWriter(err, true)).execute("collector", "--kafka-config", "/no/such/collector.properties");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).contains("--kafka-config: cannot read /no/such/collector.properties");
  }

  @Test
  void warnsOfACountWhoseDescriptorsExceedTheLimit() {
    assertThat(CollectorBench.descriptorWarning(1, CgroupVersion.V1)).isEmpty();
    // Unless this machine has no limit at all, 100 million groups' 800 million descriptors exceed it.
    CollectorBench.descriptorWarning(100_000_000, CgroupVersion.V1).ifPresent(warning ->
        assertThat(warning).contains("100,000,000 groups need up to 800,000,000 open files (up to 8 per group on v1;"));
    CollectorBench.descriptorWarning(100_000_000, CgroupVersion.V2).ifPresent(warning ->
        assertThat(warning).contains("100,000,000 groups need up to 700,000,000 open files (up to 7 per group on v2;"));
  }

  /** Seconds of process CPU {@code cpuS} over a window of {@code windowS}, half of it on the sampler thread. */
  private static CollectorCurve.Point point(int groups, double windowS, double cpuS, double rounds) {
    CollectorCurve.Split split = new CollectorCurve.Split(cpuS / 2, cpuS / 10, cpuS / 20, cpuS / 10, cpuS / 10, cpuS * 0.15);
    return new CollectorCurve.Point(groups, 1, windowS, cpuS, split, rounds, rounds * 0.02, 0.03, groups * rounds, 0, 0,
        0.5, 0.4, 1.5);
  }
}
