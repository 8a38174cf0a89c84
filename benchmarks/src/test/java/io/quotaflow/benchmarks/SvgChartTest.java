package io.quotaflow.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

class SvgChartTest {

  @Test
  void rendersOneWellFormedPolylinePerSeries() throws Exception {
    String svg = SvgChart.render("A <title> & more", "sub", new double[] {1, 2, 3}, List.of(
        new SvgChart.Panel("p1", "cores", List.of(
            new SvgChart.Series("a", "#000", null, new double[] {0, 5, 10}),
            new SvgChart.Series("b", "#f00", "4,2", new double[] {1, 1, 1}))),
        new SvgChart.Panel("p2", "cpu·h", List.of(
            new SvgChart.Series("c", "#0f0", null, new double[] {3, 2, 1})))));

    Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));

    assertThat(document.getElementsByTagName("polyline").getLength()).isEqualTo(3);
    assertThat(document.getDocumentElement().getTextContent()).contains("A <title> & more");
    assertThat(svg).contains("stroke-dasharray=\"4,2\"");
  }

  @Test
  void axisTopsAreRoundNumbers() {
    assertThat(SvgChart.niceStep(400)).isEqualTo(500);
    assertThat(SvgChart.niceStep(4800)).isEqualTo(5000);
    assertThat(SvgChart.niceStep(2400)).isEqualTo(2500);
    assertThat(SvgChart.niceStep(0)).isEqualTo(1);
  }
}
