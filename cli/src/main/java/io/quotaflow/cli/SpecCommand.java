package io.quotaflow.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.process.ConnectionOptions;
import io.quotaflow.schemas.Ids;
import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.json.JsonRecords;
import io.quotaflow.streams.topology.RecordChecks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.RecordMetadata;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code quotaflow spec set|show|delete}: a task's {@link TaskSpec} on the task-specs topic. */
@Command(name = "spec", mixinStandardHelpOptions = true,
    description = "Publish, show or delete task specs (what the job system asked for a task).")
final class SpecCommand {

  @Command(name = "set", mixinStandardHelpOptions = true,
      description = {"Create or change a task's spec: field=value for any TaskSpec field (docs/contracts.md).",
          "Example: quotaflow spec set n1/t7 ncpus=2 pool=research job_cpu_monitor.enable_cpu_reclaim=true"})
  int set(@Mixin ConnectionOptions connection, @Parameters(index = "0", paramLabel = "NODE/TASK") String key,
      @Parameters(index = "1..*", paramLabel = "FIELD=VALUE", arity = "0..*") List<String> assignments) {
    TaskKey task = parseKey(key);
    var registry = connection.registryClient();
    Topics topics = connection.existingTopics(registry);
    ConfigTopics io = new ConfigTopics(connection.clientProperties());
    TaskSpec current = io.latest(topics.taskSpecs(), task.node()).get(key);
    ObjectNode base = current == null
        ? JsonRecords.MAPPER.createObjectNode().put("node", task.node()).put("task", task.task())
        : JsonRecords.toJson(current);
    TaskSpec spec = Records.parse(FieldAssignments.apply(base, assignments == null ? List.of() : assignments), TaskSpec.class);
    List<String> problems = new ArrayList<>(RecordChecks.specProblems(spec));
    if (!spec.getNode().equals(task.node()) || !spec.getTask().equals(task.task())) {
      problems.add("node/task in the value (" + spec.getNode() + "/" + spec.getTask() + ") must match the key " + key);
    }
    Records.requireValid("task spec", problems);
    RecordMetadata where = io.publish(topics.taskSpecs(), key, spec);
    System.out.println(JsonRecords.toJson(spec).toPrettyString());
    System.out.printf("published to %s partition %d offset %d%n", where.topic(), where.partition(), where.offset());
    return 0;
  }

  @Command(name = "show", mixinStandardHelpOptions = true, description = "Show the current specs of a node, of one task, or of every node.")
  int show(@Mixin ConnectionOptions connection, @Parameters(index = "0", arity = "0..1", paramLabel = "NODE[/TASK]") String which) {
    String node = which == null ? null : TaskKey.nodeOf(which);
    if (node != null) {
      Ids.requireValid("node", node);
    }
    var registry = connection.registryClient();
    Map<String, TaskSpec> specs = new ConfigTopics(connection.clientProperties()).latest(connection.existingTopics(registry).taskSpecs(), node);
    specs.forEach((key, spec) -> {
      if (which == null || key.equals(which) || TaskKey.nodeOf(key).equals(which)) {
        System.out.println(key + " " + JsonRecords.toJson(spec));
      }
    });
    return 0;
  }

  @Command(name = "delete", mixinStandardHelpOptions = true, description = "Tombstone a task's spec: the task is gone for the job system.")
  int delete(@Mixin ConnectionOptions connection, @Parameters(index = "0", paramLabel = "NODE/TASK") String key) {
    parseKey(key);
    var registry = connection.registryClient();
    RecordMetadata where = new ConfigTopics(connection.clientProperties()).publish(connection.existingTopics(registry).taskSpecs(), key, null);
    System.out.printf("tombstoned %s in %s partition %d offset %d%n", key, where.topic(), where.partition(), where.offset());
    return 0;
  }

  private static TaskKey parseKey(String key) {
    try {
      return TaskKey.parse(key);
    } catch (IllegalArgumentException e) {
      throw new CliException(e.getMessage());
    }
  }
}
