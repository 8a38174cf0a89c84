package io.quotaflow.cli;

import io.quotaflow.process.ClusterConnection;
import io.quotaflow.process.UsageException;
import io.quotaflow.schemas.Ids;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.internal.BroadcastKind;
import io.quotaflow.schemas.avro.internal.ConfigBroadcast;
import io.quotaflow.schemas.avro.internal.MemoryProfileRecord;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code quotaflow profile show}: the memory profiles the streams app learned per operation from
 * finished tasks (docs/memory-gating.md "Learned profiles"), as broadcast on {@code config-broadcast}.
 */
@Command(name = "profile", mixinStandardHelpOptions = true,
    description = "Show the memory profiles learned per operation (normal and peak usage of finished tasks).")
final class ProfileCommand {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Command(name = "show", mixinStandardHelpOptions = true,
      description = {"Show the learned profile of one operation, or of every operation.",
          "Example: quotaflow profile show etl-join"})
  int show(@Mixin ClusterConnection connection,
      @Parameters(index = "0", arity = "0..1", paramLabel = "OPERATION") String operation) {
    if (operation != null) {
      try {
        Ids.requireValid("operation", operation);
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
    }
    Map<String, MemoryProfileRecord> profiles = learned(connection);
    PrintWriter out = spec.commandLine().getOut();
    if (operation == null) {
      if (profiles.isEmpty()) {
        out.println("# no learned profiles yet: one is learned when a task whose spec names an operation finishes (GONE)");
        out.flush();
      } else {
        ProfileTable.print(profiles.values(), out);
      }
      return 0;
    }
    MemoryProfileRecord profile = profiles.get(operation);
    if (profile == null) {
      throw new CliException("no learned profile for operation '" + operation + "'"
          + (profiles.isEmpty() ? ": none learned yet" : " (learned: " + String.join(", ", profiles.keySet()) + ")"));
    }
    ProfileTable.print(List.of(profile), out);
    return 0;
  }

  /**
   * The latest profile of each operation, by name. Every partition of the broadcast topic holds a
   * copy of every profile, so partition 0 is read; the streams app writes it transactionally.
   */
  private static Map<String, MemoryProfileRecord> learned(ClusterConnection connection) {
    Topics topics = connection.topicsThatExist(connection.registryClient(), Topics::configBroadcast);
    Map<String, ConfigBroadcast> latest = new ConfigTopics(connection.clientProperties())
        .latestInPartition(topics.configBroadcast(), 0);
    Map<String, MemoryProfileRecord> profiles = new TreeMap<>();
    for (ConfigBroadcast broadcast : latest.values()) {
      if (broadcast.getKind() == BroadcastKind.MEMORY_PROFILE && broadcast.getMemoryProfile() != null) {
        profiles.put(broadcast.getId(), broadcast.getMemoryProfile());
      }
    }
    return profiles;
  }
}
