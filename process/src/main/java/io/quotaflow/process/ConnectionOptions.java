package io.quotaflow.process;

import io.quotaflow.schemas.Topics;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The connection flags ({@link ClusterConnection}) of a command that creates the topics it needs
 * where they are missing, with {@code --partitions}: the partition count of the node-keyed topics
 * it creates. A command that creates none does not take the flag, so it is never given and ignored.
 */
public final class ConnectionOptions extends ClusterConnection {

  @Option(names = "--partitions", paramLabel = "N",
      description = "Partitions of every node-keyed topic it creates (env QUOTAFLOW_PARTITIONS; default "
          + Topics.DEFAULT_PARTITIONS + ").")
  Integer partitions;

  @Override
  Integer partitionsFlag() {
    return partitions;
  }

  @Override
  boolean readsPartitions() {
    return true;
  }

  @Override
  public ConnectionOptions environment(Map<String, String> variables) {
    super.environment(variables);
    return this;
  }
}
