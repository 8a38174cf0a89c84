package io.quotaflow.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotaflow.cli.replay.ReplayReport.Point;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportJsonTest {

  @TempDir
  Path dir;

  @Test
  void aWrittenReportReadsBackEqual() throws Exception {
    ReplayReport report = SampleReports.twoTasks();
    Path file = dir.resolve("report.json");

    ReportJson.write(report, file);

    assertThat(ReportJson.read(file)).isEqualTo(report);
  }

  @Test
  void aFigureTheReplayCouldNotComputeReadsBackAsNaN() throws Exception {
    ReplayReport report = SampleReports.withUsage(SampleReports.twoTasks(),
        List.of(new Point(SampleReports.FROM_MS, Double.NaN)));
    Path file = dir.resolve("report.json");

    ReportJson.write(report, file);

    assertThat(ReportJson.read(file)).isEqualTo(report);
    // The bare token Python's json.load reads as a float, not the string "NaN".
    assertThat(Files.readString(file)).contains("\"value\" : NaN");
  }

  @Test
  void fieldNamesAreSnakeCase() {
    String json = ReportJson.toJson(SampleReports.twoTasks());

    assertThat(json).contains("\"read_from_ms\"", "\"exact_tasks_matching\"", "\"first_difference\"", "\"t_ms\"",
        "\"max_added_over_limit_seconds\"", "\"peak_memory_bytes\"");
    assertThat(json).doesNotContain("readFromMs", "exactTasksMatching", "firstDifference", "tMs");
  }

  @Test
  void eachPairCarriesItsChange() throws Exception {
    JsonNode json = new ObjectMapper().readTree(ReportJson.toJson(SampleReports.twoTasks()));

    JsonNode reclaimed = json.get("summary").get("reclaimed_cpu_seconds");
    assertThat(reclaimed.get("recorded").asDouble()).isEqualTo(100.0);
    assertThat(reclaimed.get("replayed").asDouble()).isEqualTo(112.5);
    assertThat(reclaimed.get("change").asDouble()).isEqualTo(12.5);
    assertThat(json.get("nodes").get(0).get("frozen_task_seconds").get("change").asDouble()).isEqualTo(420.0);
  }

  @Test
  void anOpenFreezeIntervalIsWrittenWithANullEnd() throws Exception {
    JsonNode json = new ObjectMapper().readTree(ReportJson.toJson(SampleReports.twoTasks()));

    JsonNode open = json.get("nodes").get(0).get("replayed_frozen").get(0);
    assertThat(open.has("to_ms")).isTrue();
    assertThat(open.get("to_ms").isNull()).isTrue();
  }

  @Test
  void noAdviceIsWrittenAsNull() throws Exception {
    ReplayReport full = SampleReports.twoTasks();
    ReplayReport report = new ReplayReport(full.range(), List.of(), full.summary(), full.tasks(), full.nodes(),
        full.pools(), null);
    Path file = dir.resolve("report.json");

    ReportJson.write(report, file);

    assertThat(new ObjectMapper().readTree(file.toFile()).get("advice").isNull()).isTrue();
    assertThat(ReportJson.read(file)).isEqualTo(report);
  }
}
