package io.quotaflow.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.registry.CompatibilityLevel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * The schemas are a contract with data teams and {@code simulate}: every released version stays
 * readable and writable (FULL_TRANSITIVE), no contract field disappears, every field is documented.
 * How to release: docs/contracts.md.
 */
class SchemaContractTest {

  private static final Path CURRENT = Path.of("src/main/avro");
  private static final Path RELEASED = Path.of("src/test/resources/released");

  /** DESIGN.md's contract field names per record; adding is free, removing or renaming is not. */
  private static final Map<String, List<String>> CONTRACT = Map.of(
      "CgroupSample", List.of("node", "task", "ts_ms", "cpu_usage_usec", "memory_bytes", "memory_anon_bytes",
          "memory_peak_bytes", "nr_throttled", "throttled_usec", "cpu_quota_cores", "state", "seq"),
      "TaskSpec", List.of("node", "task", "operation", "pool", "ncpus", "cpu_limit", "job_cpu_monitor",
          "memory_normal_bytes", "memory_peak_bytes", "interactive", "submitted_ms"),
      "PoolConfig", List.of("pool", "parent", "strong_guarantee_cpu", "weight", "guarantee_type", "resource_flow_cpu",
          "burst_guarantee_cpu", "relaxed_share_multiplier_limit", "limit_cpu"),
      "ClusterConfig", List.of("enforcement", "total_cpu", "pool_capacity_saturation_period_s", "smooth_period_s",
          "relaxed_share_multiplier_limit", "fair_share_update_period_ms", "cfs_period_us", "cfs_quota_fudge_factor",
          "enforce_per_period_quota", "zero_cpus_shares_fraction", "zero_cpus_quota_fraction", "ncpus_are_cores",
          "use_hyperthreads", "peak_gating_mode", "peak_threshold_ratio", "peak_release_ratio", "max_concurrent_peaks",
          "memory_headroom_bytes", "freeze_lease_ms", "task_idle_timeout_ms"),
      "CpuDecision", List.of("node", "task", "ts_ms", "hard_limit_cpu", "soft_limit_cpu", "effective_limit_cpu",
          "smoothed_usage_cpu", "votes_sum", "reason", "apply", "cgroup"),
      "FreezeDecision", List.of("node", "task", "ts_ms", "action", "reason", "queue_position", "lease_ms"),
      "PoolState", List.of("pool", "ts_ms", "accumulated_resource_ratio_volume", "accumulated_resource_volume_cpu",
          "integral_pool_capacity", "specified_burst_ratio", "specified_resource_flow_ratio", "total_burst_ratio",
          "total_resource_flow_ratio", "estimated_burst_usage_duration_seconds", "demand_cpu", "usage_cpu", "strong_cpu",
          "integral_cpu", "fair_share_cpu"),
      "EnforcementResult", List.of("node", "task", "ts_ms", "kind", "status", "detail", "decision_topic",
          "decision_partition", "decision_offset"),
      "NodeStatus", List.of("node", "memory_total_bytes", "cpus", "threads_per_core", "cgroup_version"),
      // Not in DESIGN's list: Quotaflow's own contract with enforcers (issue 21), held to the same rule.
      "GateTable", List.of("node", "ts_ms", "mode", "holders", "queue", "admits_new_peak", "free_slots", "bytes_left",
          "tasks"));

  @Test
  void everyReleasedSchemaIsFullyTransitivelyCompatibleWithTheCurrentOne() {
    Map<String, Schema> current = load(CURRENT);
    Map<String, List<Schema>> released = releasedByName();
    assertThat(released).as("released copies under " + RELEASED).isNotEmpty();
    List<String> problems = new ArrayList<>();
    released.forEach((name, versions) -> {
      Schema now = current.get(name);
      if (now == null) {
        problems.add(name + " was released but is gone from " + CURRENT);
        return;
      }
      CompatibilityLevel.FULL_TRANSITIVE.problems(now, versions).forEach(p -> problems.add(name + ": " + p));
    });
    assertThat(problems).isEmpty();
  }

  @Test
  void theGuardCatchesARemovedFieldWithoutDefault() {
    Schema released = load(CURRENT).get("CgroupSample");
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : released.getFields()) {
      if (!f.name().equals("cpu_usage_usec")) {
        fields.add(new Schema.Field(f, f.schema()));
      }
    }
    Schema shrunk = Schema.createRecord(released.getName(), released.getDoc(), released.getNamespace(), false, fields);
    assertThat(CompatibilityLevel.FULL_TRANSITIVE.problems(shrunk, List.of(released)))
        .anySatisfy(p -> assertThat(p).contains("READER_FIELD_MISSING_DEFAULT_VALUE").contains("cpu_usage_usec"));
  }

  @Test
  void contractFieldsArePresent() {
    Map<String, Schema> current = load(CURRENT);
    CONTRACT.forEach((record, fields) -> {
      Schema schema = current.get(record);
      assertThat(schema).as(record).isNotNull();
      assertThat(schema.getFields()).extracting(Schema.Field::name).as(record).containsAll(fields);
    });
    Schema monitor = current.get("TaskSpec").getField("job_cpu_monitor").schema();
    assertThat(monitor.getFields()).extracting(Schema.Field::name).containsExactly("enable_cpu_reclaim", "check_period_ms",
        "start_delay_ms", "smoothing_factor", "relative_upper_bound", "relative_lower_bound", "increase_coefficient",
        "decrease_coefficient", "vote_window_size", "vote_decision_threshold", "min_cpu_limit");
    Schema cgroup = current.get("CpuDecision").getField("cgroup").schema();
    assertThat(cgroup.getFields()).extracting(Schema.Field::name).containsExactly("shares", "weight", "quota_us", "period_us");
  }

  @Test
  void everyFieldAndRecordIsDocumented() {
    List<String> undocumented = new ArrayList<>();
    load(CURRENT).values().forEach(schema -> collectUndocumented(schema, undocumented));
    assertThat(undocumented).isEmpty();
  }

  @Test
  void defaultsAreTheOnesDesignGives() {
    Schema cluster = load(CURRENT).get("ClusterConfig");
    assertThat(cluster.getField("enforcement").defaultVal()).isEqualTo("ON");
    assertThat(cluster.getField("peak_gating_mode").defaultVal()).isEqualTo("COUNT");
    assertThat(cluster.getField("cfs_quota_fudge_factor").defaultVal()).isEqualTo(1.03);
    assertThat(cluster.getField("freeze_lease_ms").defaultVal()).isEqualTo(180000L);
    assertThat(cluster.getField("total_cpu").defaultVal()).isEqualTo(org.apache.avro.JsonProperties.NULL_VALUE);
  }

  private static void collectUndocumented(Schema schema, List<String> out) {
    if (schema.getType() != Schema.Type.RECORD) {
      return;
    }
    if (schema.getDoc() == null || schema.getDoc().isBlank()) {
      out.add(schema.getFullName());
    }
    for (Schema.Field field : schema.getFields()) {
      if (field.doc() == null || field.doc().isBlank()) {
        out.add(schema.getName() + "." + field.name());
      }
      Schema inner = field.schema();
      if (inner.getType() == Schema.Type.UNION) {
        inner.getTypes().forEach(t -> collectUndocumented(t, out));
      } else {
        collectUndocumented(inner, out);
      }
    }
  }

  private static Map<String, List<Schema>> releasedByName() {
    Map<String, List<Schema>> byName = new TreeMap<>();
    try (Stream<Path> versions = Files.list(RELEASED)) {
      // oldest first, so problems name versions in release order
      for (Path version : versions.sorted(SchemaContractTest::compareVersions).toList()) {
        load(version).forEach((name, schema) -> byName.computeIfAbsent(name, n -> new ArrayList<>()).add(schema));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return byName;
  }

  private static int compareVersions(Path a, Path b) {
    String[] x = a.getFileName().toString().split("\\.");
    String[] y = b.getFileName().toString().split("\\.");
    for (int i = 0; i < Math.min(x.length, y.length); i++) {
      int c = Integer.compare(Integer.parseInt(x[i]), Integer.parseInt(y[i]));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(x.length, y.length);
  }

  private static Map<String, Schema> load(Path dir) {
    Map<String, Schema> schemas = new TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".avsc")).toList()) {
        Schema schema = new Schema.Parser().parse(file.toFile());
        schemas.put(schema.getName(), schema);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return schemas;
  }
}
