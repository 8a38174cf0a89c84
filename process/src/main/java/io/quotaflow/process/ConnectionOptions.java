package io.quotaflow.process;

import io.quotaflow.schemas.TopicAdmin;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
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

  /** The catalogue's topics, created where missing (with the broker's default replication factor). */
  public Topics existingTopics(SchemaRegistryClient registry) {
    Topics topics = topics(registry);
    Map<String, Object> props = clientProperties();
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000);
    try (Admin admin = Admin.create(props)) {
      TopicAdmin.createMissing(admin, topics.all(), Optional.empty());
    } catch (IllegalStateException | KafkaException e) {
      throw new ProcessException("cannot reach Kafka at " + bootstrap() + ": " + ProcessException.rootMessage(e), e);
    }
    return topics;
  }

  @Override
  public ConnectionOptions environment(Map<String, String> variables) {
    super.environment(variables);
    return this;
  }
}
