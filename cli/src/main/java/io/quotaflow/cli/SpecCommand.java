package io.quotaflow.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.process.ClusterConnection;
import io.quotaflow.process.UsageException;
import io.quotaflow.schemas.Ids;
import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.json.JsonRecords;
import io.quotaflow.streams.topology.RecordChecks;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.RecordMetadata;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code quotaflow spec set|show|delete}: a task's {@link TaskSpec} on the task-specs topic. */
@Command(name = "spec", mixinStandardHelpOptions = true,
    description = "Publish, show or delete task specs (what the job system asked for a task).")
final class SpecCommand {

  @Spec
  CommandSpec spec;

  @Command(name = "set", mixinStandardHelpOptions = true,
      description = {"Create or change a task's spec: FIELD=VALUE for any TaskSpec field (listed below; docs/contracts.md).",
          "Fields not given keep their current values (the schema's defaults for a new task); FIELD=null unsets a nullable one.",
          "Every value is checked before anything connects; a bad one exits 2 naming the field.",
          "Example: quotaflow spec set n1/t7 ncpus=2 pool=research job_cpu_monitor.enable_cpu_reclaim=true"})
  int set(@Mixin ClusterConnection connection, @Parameters(index = "0", paramLabel = "NODE/TASK") String key,
      @Option(names = "--dry-run", description = "Print the record that would be published (built on the schema's defaults, "
          + "not on the current spec) and connect to nothing.") boolean dryRun,
      @Parameters(index = "1..*", paramLabel = "FIELD=VALUE", arity = "0..*") List<String> assignments) {
    TaskKey task = parseKey(key);
    List<String> given = assignments == null ? List.of() : assignments;
    ObjectNode fresh = JsonRecords.MAPPER.createObjectNode().put("node", task.node()).put("task", task.task());
    // ncpus has no default (a new task must say it); 0 passes its check, so the probe judges only the given fields.
    Records.precheck(fresh.deepCopy().put("ncpus", 0.0), given, TaskSpec.class, "task spec", RecordChecks::specFieldProblems);
    PrintWriter out = spec.commandLine().getOut();
    if (dryRun) {
      TaskSpec draft = validated(key, task, FieldAssignments.apply(fresh, given));
      DryRun.print(out, key, draft);
      return 0;
    }
    var registry = connection.registryClient();
    Topics topics = connection.topicsThatExist(registry, Topics::taskSpecs);
    ConfigTopics io = new ConfigTopics(connection.clientProperties());
    TaskSpec current = io.latest(topics.taskSpecs(), task.node()).get(key);
    ObjectNode base = current == null ? fresh : JsonRecords.toJson(current);
    TaskSpec spec = validated(key, task, FieldAssignments.apply(base, given));
    RecordMetadata where = io.publish(topics.taskSpecs(), key, spec);
    out.println(JsonRecords.toJson(spec).toPrettyString());
    out.printf("published to %s partition %d offset %d%n", where.topic(), where.partition(), where.offset());
    out.flush();
    return 0;
  }

  /** The spec the merged JSON makes, refused (exit 2) with every problem, the rules between fields included. */
  private static TaskSpec validated(String key, TaskKey task, ObjectNode json) {
    TaskSpec spec = Records.parse(json, TaskSpec.class);
    List<String> problems = new ArrayList<>(RecordChecks.specProblems(spec));
    if (!spec.getNode().equals(task.node()) || !spec.getTask().equals(task.task())) {
      problems.add("node/task in the value (" + spec.getNode() + "/" + spec.getTask() + ") must match the key " + key);
    }
    Records.requireValid("task spec", problems);
    return spec;
  }

  @Command(name = "show", mixinStandardHelpOptions = true, description = "Show the current specs of a node, of one task, or of every node.")
  int show(@Mixin ClusterConnection connection, @Parameters(index = "0", arity = "0..1", paramLabel = "NODE[/TASK]") String which) {
    String node = which == null ? null : TaskKey.nodeOf(which);
    if (node != null) {
      try {
        Ids.requireValid("node", node);
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
    }
    var registry = connection.registryClient();
    Topics topics = connection.topicsThatExist(registry, Topics::taskSpecs);
    Map<String, TaskSpec> specs = new ConfigTopics(connection.clientProperties()).latest(topics.taskSpecs(), node);
    PrintWriter out = spec.commandLine().getOut();
    specs.forEach((key, value) -> {
      if (which == null || key.equals(which) || TaskKey.nodeOf(key).equals(which)) {
        out.println(key + " " + JsonRecords.toJson(value));
      }
    });
    out.flush();
    return 0;
  }

  @Command(name = "delete", mixinStandardHelpOptions = true, description = "Tombstone a task's spec: the task is gone for the job system.")
  int delete(@Mixin ClusterConnection connection, @Parameters(index = "0", paramLabel = "NODE/TASK") String key) {
    parseKey(key);
    var registry = connection.registryClient();
    Topics topics = connection.topicsThatExist(registry, Topics::taskSpecs);
    RecordMetadata where = new ConfigTopics(connection.clientProperties()).publish(topics.taskSpecs(), key, null);
    PrintWriter out = spec.commandLine().getOut();
    out.printf("tombstoned %s in %s partition %d offset %d%n", key, where.topic(), where.partition(), where.offset());
    out.flush();
    return 0;
  }

  private static TaskKey parseKey(String key) {
    try {
      return TaskKey.parse(key);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }
}
