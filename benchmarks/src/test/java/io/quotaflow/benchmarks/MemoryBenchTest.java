package io.quotaflow.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
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
    assertThat(text.lines().filter(l -> l.matches("^(OFF|COUNT|BUDGET)\\s+(-|0|2)\\s+\\d+.*"))).hasSize(5);
    for (int delay : new int[] {0, 2}) {
      Path chart = outDir.resolve("memory-gating-delay-" + delay + ".svg");
      assertThat(text).contains(chart.toAbsolutePath().normalize().toString());
      Document svg = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(chart.toFile());
      assertThat(svg.getElementsByTagName("polyline").getLength()).isEqualTo(3);
    }
  }
}
