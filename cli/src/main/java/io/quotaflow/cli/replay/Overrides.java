package io.quotaflow.cli.replay;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.cli.FieldAssignments;
import io.quotaflow.cli.Records;
import io.quotaflow.process.UsageException;
import io.quotaflow.schemas.Ids;
import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.json.JsonRecords;
import io.quotaflow.streams.topology.ClusterConfigValidator;
import io.quotaflow.streams.topology.RecordChecks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.Schema;

/**
 * The what-if parameters of a replay: {@code --set cluster.FIELD=V}, {@code pool.POOL.FIELD=V},
 * {@code task.NODE/TASK.FIELD=V} (or {@code task.*.FIELD=V} for every task), in the operator tools'
 * {@code FIELD=VALUE} syntax. Each applies to every record of its kind (or id) the replay reads, so
 * the change holds from the start of the range; a record made valid by the live app and made invalid
 * by an override is refused, naming the override. Ids may contain dots, so an argument is split where
 * the rest is a field of the record's schema.
 */
public record Overrides(List<String> cluster, Map<String, List<String>> pools, List<String> allTasks,
    Map<String, List<String>> tasks, List<String> given) {

  public static final Overrides NONE = new Overrides(List.of(), Map.of(), List.of(), Map.of(), List.of());

  /** Every task's spec, whatever its key: {@code task.*.FIELD=V}. */
  public static final String EVERY_TASK = "*";

  /** Parses and checks the arguments against the schemas' fields and ranges before anything connects. */
  public static Overrides parse(List<String> arguments) {
    List<String> cluster = new ArrayList<>();
    Map<String, List<String>> pools = new LinkedHashMap<>();
    List<String> allTasks = new ArrayList<>();
    Map<String, List<String>> tasks = new LinkedHashMap<>();
    for (String argument : arguments) {
      int eq = argument.indexOf('=');
      if (eq <= 0) {
        throw new UsageException("--set " + argument + ": expected cluster.FIELD=VALUE, pool.POOL.FIELD=VALUE or "
            + "task.NODE/TASK.FIELD=VALUE");
      }
      String name = argument.substring(0, eq);
      String value = argument.substring(eq + 1);
      if (name.startsWith("cluster.")) {
        String field = name.substring("cluster.".length());
        requireField(argument, ClusterConfig.getClassSchema(), field);
        String assignment = field + "=" + value;
        check(argument, () -> Records.precheck(JsonRecords.MAPPER.createObjectNode().put("cluster", "main"),
            List.of(assignment), ClusterConfig.class, "cluster config", ClusterConfigValidator::fieldProblems));
        cluster.add(assignment);
      } else if (name.startsWith("pool.")) {
        String[] idAndField = split(argument, name.substring("pool.".length()), PoolConfig.getClassSchema());
        String pool = idAndField[0];
        if (!Ids.isValid(pool)) {
          throw new UsageException("--set " + argument + ": invalid pool id '" + pool + "': ids match " + Ids.PATTERN_TEXT);
        }
        String assignment = idAndField[1] + "=" + value;
        check(argument, () -> Records.precheck(JsonRecords.MAPPER.createObjectNode().put("pool", pool),
            List.of(assignment), PoolConfig.class, "pool config", RecordChecks::poolFieldProblems));
        pools.computeIfAbsent(pool, p -> new ArrayList<>()).add(assignment);
      } else if (name.startsWith("task.")) {
        String[] idAndField = split(argument, name.substring("task.".length()), TaskSpec.getClassSchema());
        String key = idAndField[0];
        String assignment = idAndField[1] + "=" + value;
        if (!EVERY_TASK.equals(key)) {
          try {
            TaskKey.parse(key);
          } catch (IllegalArgumentException e) {
            throw new UsageException("--set " + argument + ": " + e.getMessage());
          }
        }
        if (idAndField[1].equals("node") || idAndField[1].equals("task")) {
          throw new UsageException("--set " + argument + ": a task's node and task are its key, not a parameter");
        }
        check(argument, () -> Records.precheck(JsonRecords.MAPPER.createObjectNode().put("node", "n").put("task", "t")
            .put("ncpus", 0.0), List.of(assignment), TaskSpec.class, "task spec", RecordChecks::specFieldProblems));
        (EVERY_TASK.equals(key) ? allTasks : tasks.computeIfAbsent(key, k -> new ArrayList<>())).add(assignment);
      } else {
        throw new UsageException("--set " + argument + ": unknown key '" + name + "': it starts with cluster., pool.POOL. "
            + "or task.NODE/TASK.");
      }
    }
    return new Overrides(List.copyOf(cluster), Map.copyOf(pools), List.copyOf(allTasks), Map.copyOf(tasks),
        List.copyOf(arguments));
  }

  public boolean isEmpty() {
    return given.isEmpty();
  }

  /** This set and then {@code more}, as if both were given on one command line. */
  public Overrides and(List<String> more) {
    List<String> all = new ArrayList<>(given);
    all.addAll(more);
    return parse(all);
  }

  /** The config with the cluster overrides applied; {@code config} null stands for the schema's defaults. */
  public ClusterConfig cluster(ClusterConfig config) {
    if (cluster.isEmpty()) {
      return config;
    }
    ObjectNode base = config == null ? JsonRecords.MAPPER.createObjectNode().put("cluster", "main") : JsonRecords.toJson(config);
    ClusterConfig changed = parse(FieldAssignments.apply(base, cluster), ClusterConfig.class, "cluster");
    require("cluster", ClusterConfigValidator.problems(changed));
    return changed;
  }

  /** The pool's config with its overrides applied; a tombstone stays one. */
  public PoolConfig pool(String pool, PoolConfig config) {
    List<String> assignments = pools.get(pool);
    if (assignments == null || config == null) {
      return config;
    }
    PoolConfig changed = parse(FieldAssignments.apply(JsonRecords.toJson(config), assignments), PoolConfig.class, "pool." + pool);
    require("pool." + pool, RecordChecks.poolProblems(pool, changed));
    return changed;
  }

  /** Pools overridden but never configured in the recording: the replay starts them from the schema's defaults. */
  public PoolConfig fresh(String pool) {
    PoolConfig changed = parse(FieldAssignments.apply(JsonRecords.MAPPER.createObjectNode().put("pool", pool), pools.get(pool)),
        PoolConfig.class, "pool." + pool);
    require("pool." + pool, RecordChecks.poolProblems(pool, changed));
    return changed;
  }

  /** The task's spec with every-task and then its own overrides applied; a tombstone stays one. */
  public TaskSpec task(String key, TaskSpec spec) {
    List<String> own = tasks.getOrDefault(key, List.of());
    if (spec == null || (allTasks.isEmpty() && own.isEmpty())) {
      return spec;
    }
    List<String> assignments = new ArrayList<>(allTasks);
    assignments.addAll(own);
    TaskSpec changed = parse(FieldAssignments.apply(JsonRecords.toJson(spec), assignments), TaskSpec.class, "task." + key);
    require("task." + key, RecordChecks.specProblems(changed));
    return changed;
  }

  /** The ids overridden by name, to check each was seen in the recording. */
  public Set<String> namedPools() {
    return new TreeSet<>(pools.keySet());
  }

  public Set<String> namedTasks() {
    return new TreeSet<>(tasks.keySet());
  }

  private <T extends org.apache.avro.specific.SpecificRecord> T parse(ObjectNode json, Class<T> type, String what) {
    try {
      return JsonRecords.fromJson(json, type);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--set " + what + ".…: the recorded " + type.getSimpleName() + " with the overrides is invalid: "
          + e.getMessage() + " (nothing was written)");
    }
  }

  private void require(String what, List<String> problems) {
    if (!problems.isEmpty()) {
      List<String> named = given.stream().filter(g -> g.startsWith(what + ".")
          || (what.startsWith("task.") && g.startsWith("task." + EVERY_TASK + "."))).toList();
      throw new UsageException("--set " + String.join(" ", named.isEmpty() ? given : named)
          + ": the recorded " + what + " with it is invalid: " + String.join("; ", problems) + " (nothing was written)");
    }
  }

  /**
   * {@code ID.FIELD.PATH} split at the first dot where the rest is a field path of {@code schema}
   * ({@code job_cpu_monitor.decrease_coefficient} reaches into the nested record).
   */
  private static String[] split(String argument, String idAndField, Schema schema) {
    int dot = idAndField.indexOf('.');
    while (dot > 0) {
      String field = idAndField.substring(dot + 1);
      if (isFieldPath(schema, field)) {
        return new String[] {idAndField.substring(0, dot), field};
      }
      dot = idAndField.indexOf('.', dot + 1);
    }
    throw new UsageException("--set " + argument + ": no " + schema.getName() + " field named after the id (fields: "
        + fieldNames(schema) + ")");
  }

  private static void requireField(String argument, Schema schema, String field) {
    if (!isFieldPath(schema, field)) {
      throw new UsageException("--set " + argument + ": unknown " + schema.getName() + " field '" + field + "' (fields: "
          + fieldNames(schema) + ")");
    }
  }

  private static boolean isFieldPath(Schema schema, String path) {
    Schema current = schema;
    for (String part : path.split("\\.", -1)) {
      Schema record = recordOf(current);
      if (record == null || record.getField(part) == null) {
        return false;
      }
      current = record.getField(part).schema();
    }
    return true;
  }

  /** The record schema, unwrapping a nullable union; null when it is no record. */
  private static Schema recordOf(Schema schema) {
    if (schema.getType() == Schema.Type.RECORD) {
      return schema;
    }
    if (schema.getType() == Schema.Type.UNION) {
      return schema.getTypes().stream().filter(s -> s.getType() == Schema.Type.RECORD).findFirst().orElse(null);
    }
    return null;
  }

  private static String fieldNames(Schema schema) {
    return String.join(", ", schema.getFields().stream().map(Schema.Field::name).toList());
  }

  private static void check(String argument, Runnable precheck) {
    try {
      precheck.run();
    } catch (UsageException e) {
      throw new UsageException("--set " + argument + ": " + e.getMessage());
    }
  }
}
