package io.quotaflow.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatusPageTest {

  @Test
  void showsTheTableReloadsItselfAndLinksMetricsAndHealth() {
    String html = StatusPage.html("simulated cgroup tree at /tmp/x (<reason>)",
        new DemoRows(List.of(
            new TaskRow("demo-idle", "relaxed", 0.0, 0.8, 0.8, 800L, null, 48L << 20, null, null, "APPLIED", 2000L),
            new TaskRow("demo-peak-b", "relaxed", 0.0, 1.0, 1.0, 1000L, null, 96L << 20, "waiting", 0, "UNCHANGED", 1000L)),
            List.of(new PoolRow("burst", "BURST", 0.5, 1.0, 1.0, 0.9, 0.8, 8.04, 16.1))));
    assertThat(html)
        .contains("http-equiv=\"refresh\"")
        .contains("simulated cgroup tree at /tmp/x (&lt;reason&gt;)")
        .contains("<th>soft/effective</th>")
        .contains("<th>memory</th><th>gate</th><th>queue</th>")
        .contains("<tr><td>demo-idle</td><td>relaxed</td><td>0.00</td><td>0.80 / 0.80</td><td>800</td><td>none</td><td>48 MiB</td>"
            + "<td>-</td><td>-</td><td>APPLIED 2s ago</td></tr>")
        .contains("<td>96 MiB</td><td>waiting</td><td>0</td>")
        .contains("<h2>pools</h2>", "<th>fair share</th><th>integral</th><th>volume</th>")
        .contains("<tr><td>burst</td><td>BURST</td><td>0.50</td><td>1.00</td><td>1.00</td><td>0.90</td><td>0.80</td>"
            + "<td>8.0 cpu·s</td><td>16s</td></tr>")
        .contains("<a href=\"/metrics\">", "<a href=\"/health\">")
        .doesNotContain("<reason>");
  }
}
