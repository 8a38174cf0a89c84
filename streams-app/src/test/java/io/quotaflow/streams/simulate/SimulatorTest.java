package io.quotaflow.streams.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.schemas.json.JsonRecords;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulatorTest {

  private static final long T0 = 1_700_000_000_000L;

  private record Run(Simulator.Summary summary, List<JsonNode> lines) {}

  private static Run simulate(List<String> input) throws IOException {
    StringWriter out = new StringWriter();
    Simulator.Summary summary;
    try (Simulator simulator = new Simulator()) {
      summary = simulator.run(new BufferedReader(new StringReader(String.join("\n", input))), new PrintWriter(out));
    }
    List<JsonNode> lines = new ArrayList<>();
    for (String line : out.toString().split("\n")) {
      if (!line.isBlank()) {
        lines.add(JsonRecords.MAPPER.readTree(line));
      }
    }
    return new Run(summary, lines);
  }

  private static List<JsonNode> on(Run run, String topic) {
    return run.lines().stream().filter(l -> l.path("topic").asText().equals(topic)).toList();
  }

  private static String sample(String task, long tsMs, long usageUsec) {
    return "{\"type\": \"sample\", \"key\": \"n1/" + task + "\", \"value\": {\"node\": \"n1\", \"task\": \"" + task
        + "\", \"ts_ms\": " + tsMs + ", \"cpu_usage_usec\": " + usageUsec + ", \"memory_bytes\": 1048576}}";
  }

  private static String memorySample(String task, long tsMs, long anonMb) {
    return "{\"type\": \"sample\", \"key\": \"n1/" + task + "\", \"value\": {\"node\": \"n1\", \"task\": \"" + task
        + "\", \"ts_ms\": " + tsMs + ", \"cpu_usage_usec\": 0, \"memory_bytes\": " + ((anonMb + 10) << 20)
        + ", \"memory_anon_bytes\": " + (anonMb << 20) + "}}";
  }

  @Test
  void gatingInputGivesFreezeDecisions() throws IOException {
    List<String> input = new ArrayList<>();
    for (String task : List.of("a", "b")) {
      input.add("{\"type\": \"task\", \"key\": \"n1/" + task + "\", \"value\": {\"node\": \"n1\", \"task\": \""
          + task + "\", \"ncpus\": 1, \"memory_normal_bytes\": 104857600}}");
    }
    input.add(memorySample("a", T0, 120));
    input.add(memorySample("b", T0, 100));
    input.add(memorySample("a", T0 + 1000, 120));
    input.add(memorySample("b", T0 + 1000, 120));
    input.add(memorySample("a", T0 + 2000, 100));
    Run run = simulate(input);
    assertThat(run.summary().errors()).isEmpty();
    List<JsonNode> freezes = run.lines().stream().filter(l -> l.path("topic").asText().equals("freeze-decisions")).toList();
    assertThat(freezes).extracting(l -> l.path("value").path("action").asText() + " " + l.path("value").path("reason").asText())
        .containsExactly("FREEZE PEAK_SLOT_BUSY", "THAW SLOT_FREED");
    JsonNode freeze = freezes.get(0);
    assertThat(freeze.path("key").asText()).isEqualTo("n1/b");
    assertThat(freeze.path("ts_ms").asLong()).isEqualTo(T0 + 1000);
    assertThat(freeze.path("value").path("queue_position").asInt()).isZero();
    assertThat(freeze.path("value").path("lease_ms").asLong()).isEqualTo(180_000);
    assertThat(freezes.get(1).path("value").path("queue_position").isNull()).isTrue();
  }

  @Test
  void aReflexFreezeLineIsAdoptedOrOverruledByTheGate() throws IOException {
    List<String> input = new ArrayList<>();
    for (String task : List.of("a", "b", "c")) {
      input.add("{\"type\": \"task\", \"key\": \"n1/" + task + "\", \"value\": {\"ncpus\": 1, \"memory_normal_bytes\": 104857600}}");
    }
    input.add(memorySample("a", T0, 120));
    input.add(memorySample("b", T0, 100));
    input.add(memorySample("c", T0, 100));
    // The reflex froze b and c between samples; their values leave out node and task, taken from the key.
    for (String task : List.of("b", "c")) {
      input.add("{\"type\": \"result\", \"key\": \"n1/" + task + "\", \"value\": {\"ts_ms\": " + (T0 + 400)
          + ", \"kind\": \"FREEZE\", \"status\": \"REFLEX_FROZEN\", \"read_memory_bytes\": "
          + (task.equals("b") ? 120 : 105) * 1048576L + ", \"decision_topic\": \"quotaflow.gate-tables\","
          + " \"decision_partition\": 0, \"decision_offset\": 0}}");
    }
    Run run = simulate(input);
    assertThat(run.summary().errors()).isEmpty();
    assertThat(on(run, "freeze-decisions"))
        .extracting(l -> l.path("key").asText() + " " + l.path("value").path("action").asText() + " "
            + l.path("value").path("reason").asText() + " " + l.path("ts_ms").asLong())
        .containsExactly("n1/b FREEZE REFLEX_ADOPTED " + (T0 + 400), "n1/c THAW REFLEX_OVERRULED " + (T0 + 400));
  }

  @Test
  void idleTaskIsReclaimedAndTheDecisionIsWrittenAsPlainJson() throws IOException {
    List<String> input = new ArrayList<>();
    input.add("{\"type\": \"task\", \"key\": \"n1/idle\", \"value\": {\"node\": \"n1\", \"task\": \"idle\", \"ncpus\": 2,"
        + " \"job_cpu_monitor\": {\"enable_cpu_reclaim\": true}}}");
    for (int s = 0; s < 12; s++) {
      input.add(sample("idle", T0 + s * 1000L, 0));
    }
    Run run = simulate(input);
    assertThat(run.summary().errors()).isEmpty();
    assertThat(run.summary().recordsIn()).isEqualTo(13);
    List<JsonNode> decisions = on(run, "cpu-decisions");
    assertThat(decisions).hasSize(2);
    JsonNode decrease = decisions.get(1);
    assertThat(decrease.path("topic").asText()).isEqualTo("cpu-decisions");
    assertThat(decrease.path("key").asText()).isEqualTo("n1/idle");
    assertThat(decrease.path("value").path("reason").asText()).isEqualTo("DECREASE");
    assertThat(decrease.path("value").path("soft_limit_cpu").asDouble()).isEqualTo(1.94);
    assertThat(decrease.path("value").path("smoothed_usage_cpu").isNumber()).isTrue(); // a union written bare
    assertThat(decrease.path("value").path("cgroup").path("shares").asLong()).isEqualTo(1940);
    assertThat(decrease.path("ts_ms").asLong()).isEqualTo(decrease.path("value").path("ts_ms").asLong());
  }

  @Test
  void aConfigAppliesFromItsPositionOn() throws IOException {
    List<String> input = List.of(
        "{\"type\": \"task\", \"key\": \"n1/t\", \"value\": {\"node\": \"n1\", \"task\": \"t\", \"ncpus\": 1}}",
        sample("t", T0, 0),
        "{\"type\": \"cluster\", \"key\": \"main\", \"value\": {\"cluster\": \"main\", \"enforce_per_period_quota\": true}}",
        sample("t", T0 + 1000, 1000));
    Run run = simulate(input);
    List<JsonNode> decisions = on(run, "cpu-decisions");
    assertThat(decisions).extracting(l -> l.path("value").path("reason").asText())
        .containsExactly("INITIAL/RECLAIM_OFF", "CONFIG_CHANGED/RECLAIM_OFF");
    assertThat(decisions.get(1).path("ts_ms").asLong()).isEqualTo(T0); // the config took the time of its position
    assertThat(decisions.get(1).path("value").path("cgroup").path("quota_us").asLong()).isEqualTo(103_000);
  }

  @Test
  void aValueLeavingOutItsOwnIdsTakesThemFromTheKey() throws IOException {
    List<String> input = List.of(
        "{\"type\": \"cluster\", \"key\": \"main\", \"value\": {\"total_cpu\": 2}}",
        "{\"type\": \"pool\", \"key\": \"prod\", \"value\": {\"weight\": 2}}",
        "{\"type\": \"node\", \"key\": \"n1\", \"value\": {\"ts_ms\": " + T0 + ", \"memory_total_bytes\": 8589934592,"
            + " \"cpus\": 2, \"cgroup_version\": 1}}",
        "{\"type\": \"task\", \"key\": \"n1/t\", \"value\": {\"ncpus\": 1, \"pool\": \"prod\"}}",
        "{\"type\": \"sample\", \"key\": \"n1/t\", \"value\": {\"ts_ms\": " + T0 + ", \"cpu_usage_usec\": 0,"
            + " \"memory_bytes\": 1048576}}",
        "{\"type\": \"pool\", \"key\": \"other\", \"value\": {\"pool\": \"prod\"}}");
    Run run = simulate(input);
    assertThat(run.summary().errors()).singleElement().satisfies(error -> {
      assertThat(error.line()).as("a value naming another id than its key is still refused").isEqualTo(6L);
      assertThat(error.message()).contains("key 'other' does not match pool 'prod'");
    });
    assertThat(on(run, "cpu-decisions")).singleElement().satisfies(decision -> {
      assertThat(decision.path("key").asText()).isEqualTo("n1/t");
      assertThat(decision.path("value").path("node").asText()).isEqualTo("n1");
      assertThat(decision.path("value").path("task").asText()).isEqualTo("t");
    });
  }

  @Test
  void configsAndSpecsWrittenAheadOfTheSamplesTakeTheFirstSamplesTime() throws IOException {
    List<String> input = new ArrayList<>(List.of(
        "{\"type\": \"cluster\", \"key\": \"main\", \"value\": {\"total_cpu\": 2}}",
        "{\"type\": \"pool\", \"key\": \"burst\", \"value\": {\"guarantee_type\": \"BURST\","
            + " \"resource_flow_cpu\": 1, \"burst_guarantee_cpu\": 2}}",
        "{\"type\": \"task\", \"key\": \"n1/t\", \"value\": {\"ncpus\": 1, \"pool\": \"burst\"}}"));
    for (int s = 0; s < 5; s++) {
      input.add(sample("t", T0 + s * 1000L, s * 1_000_000L));
    }
    Run run = simulate(input);
    assertThat(run.summary().errors()).isEmpty();
    List<JsonNode> states = on(run, "pool-state");
    assertThat(states).isNotEmpty();
    // Stamped at 0 the spec would open a pool period decades before the samples, and the pool would
    // "catch up" over the gap with a full volume.
    assertThat(states).allSatisfy(state -> assertThat(state.path("ts_ms").asLong()).isGreaterThanOrEqualTo(T0));
    assertThat(states.get(0).path("value").path("accumulated_resource_volume_cpu").asDouble()).isZero();
  }

  @Test
  void badLinesAreReportedWithTheirNumberAndTheRestStillRuns() throws IOException {
    List<String> input = List.of(
        "not json",
        "{\"type\": \"gauge\", \"key\": \"x\", \"value\": {}}",
        "{\"type\": \"sample\", \"key\": \"n1/a\", \"value\": {\"node\": \"n1\", \"task\": \"a\", \"ts_ms\": \"soon\"}}",
        "{\"type\": \"sample\", \"key\": \"n1/a\", \"value\": {\"node\": \"n1\", \"task\": \"a\", \"ts_ms\": 1, \"colour\": 3}}",
        "{\"type\": \"cluster\", \"key\": \"main\", \"value\": {\"cluster\": \"main\", \"cfs_period_us\": 5}}",
        sample("ok", T0, 0));
    Run run = simulate(input);
    assertThat(run.summary().errors()).extracting(Simulator.LineError::line).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(run.summary().errors().get(1).message()).contains("unknown type 'gauge'");
    assertThat(run.summary().errors().get(2).message()).contains("field ts_ms: expected an integer");
    assertThat(run.summary().errors().get(3).message()).contains("field colour: no such field");
    assertThat(run.summary().errors().get(4).message()).contains("rejected by the topology (dlq)").contains("cfs_period_us");
    assertThat(on(run, "cpu-decisions")).singleElement().satisfies(l -> assertThat(l.path("key").asText()).isEqualTo("n1/ok"));
  }
}
