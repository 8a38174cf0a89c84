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

  @Test
  void aPanelMayStartItsYAxisAboveZeroAndMarkAnXValue() {
    SvgChart.XAxis axis = SvgChart.XAxis.quantity(new double[] {0.1, 0.3, 0.5}, "");
    String svg = SvgChart.render("t", "s", axis, List.of(new SvgChart.Panel("p", "MB",
        List.of(new SvgChart.Series("worst", "#000", null, new double[] {4700, 4500, 4100})), 4000,
        List.of(new SvgChart.XMark(0.3, "goal")))));

    // The axis runs 4000..4800 MB in steps of 200: its lowest label is the floor, and 4100 sits an eighth of the
    // way up the 190-pixel panel (top 84, bottom 274) rather than near its top as it would from 0.
    assertThat(svg).contains(">4,000</text>", ">4,800</text>")
        .doesNotContain("text-anchor=\"end\" fill=\"#333\">0</text>");
    assertThat(svg).contains(String.format(java.util.Locale.ROOT, ",%.1f\"/>", 274 - 190 * 100 / 800.0));
    double x = 84 + (960 - 84 - 24) * 0.3 / axis.span();
    assertThat(svg).contains(">goal</text>", String.format(java.util.Locale.ROOT,
        "<line x1=\"%.1f\" y1=\"84\" x2=\"%.1f\" y2=\"274\" stroke=\"#000\" stroke-dasharray=\"6,4\"/>", x, x));
  }
}
