package io.quotaflow.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.streams.engine.memory.GatingMode;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

class MemoryFrontierTest {

  @TempDir
  Path dir;

  private static MemoryFrontier.Point budget(double f, long worstMib, double meanSlowdown) {
    return new MemoryFrontier.Point(GatingMode.BUDGET, f, 0, new MemoryFigures(GatingMode.BUDGET, 0, worstMib, 0,
        Math.max(0, worstMib - 4500), 0, meanSlowdown, meanSlowdown, 0, 10, 0, 0, 1));
  }

  @Test
  void theFrontierKeepsRulesNoOtherBeatsOnBothOnceEachAndTheBestMeetsBothGoals() {
    MemoryFrontier.Point cheap = budget(0, 4700, 1.07);
    MemoryFrontier.Point beaten = budget(0.1, 4710, 1.08); // more memory and more slowdown than cheap
    MemoryFrontier.Point middle = budget(0.3, 4490, 1.29);
    MemoryFrontier.Point safe = budget(0.8, 4060, 1.55);
    MemoryFrontier.Point sameAsSafe = budget(0.9, 4060, 1.55);
    MemoryFrontier.Point over = budget(0.2, 4560, 1.10);
    List<MemoryFrontier.Point> points = List.of(safe, beaten, cheap, middle, sameAsSafe, over);

    assertThat(MemoryFrontier.frontier(points)).containsExactly(cheap, over, middle, safe);
    assertThat(MemoryFrontier.best(points, 4500)).isSameAs(middle);
    assertThat(MemoryFrontier.best(List.of(cheap, safe, over), 4500)).isNull();
  }

  @Test
  void theChartDrawsTheFrontierTheBudgetAndTheGoal() throws Exception {
    Path file = dir.resolve("frontier.svg");
    MemoryFrontier.writeChart(file, "title", "sub",
        MemoryFrontier.frontier(List.of(budget(0, 4700, 1.07), budget(0.3, 4490, 1.29), budget(0.8, 4060, 1.55))),
        4500);
    Document svg = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
    assertThat(svg.getElementsByTagName("polyline").getLength()).isEqualTo(2);
    assertThat(svg.getElementsByTagName("circle").getLength()).isEqualTo(6);
    assertThat(svg.getDocumentElement().getTextContent()).contains("goal 1.3×", "budget 4500 MB", "1.00×");
  }
}
