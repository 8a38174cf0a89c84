package io.quotaflow.schemas;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Creates the catalogue's topics where missing, with their partition counts and configs, and checks
 * that topics read by the same stream tasks have equal partition counts — a mismatch would split a
 * node's records across tasks, so it stops the app at start rather than corrupting decisions.
 */
public final class TopicAdmin {

  private static final long TIMEOUT_MS = 30_000;
  private static final long METADATA_RETRY_MS = 100;

  private TopicAdmin() {}

  /**
   * Creates every topic in {@code wanted} that does not exist yet. {@code replicationFactor} empty
   * takes the broker's {@code default.replication.factor} (3 in production, 1 on a single broker).
   * Returns the names it created.
   */
  public static List<String> createMissing(Admin admin, List<Topic<?, ?>> wanted, Optional<Short> replicationFactor) {
    List<String> created = new ArrayList<>();
    try {
      Set<String> existing = admin.listTopics().names().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
      List<NewTopic> missing = new ArrayList<>();
      for (Topic<?, ?> topic : wanted) {
        if (!existing.contains(topic.name())) {
          missing.add(new NewTopic(topic.name(), Optional.of(topic.partitions()), replicationFactor).configs(topic.configs()));
        }
      }
      if (missing.isEmpty()) {
        return created;
      }
      for (Map.Entry<String, org.apache.kafka.common.KafkaFuture<Void>> result : admin.createTopics(missing).values().entrySet()) {
        try {
          result.getValue().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
          created.add(result.getKey());
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) { // another instance won the race: fine
            throw new IllegalStateException("cannot create topic " + result.getKey() + ": " + e.getCause().getMessage(),
                namingTheTopic(e.getCause(), result.getKey()));
          }
        }
      }
      return created;
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot list topics: " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("timed out talking to Kafka after " + TIMEOUT_MS + " ms while creating topics", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topics", e);
    }
  }

  /** Problems with the partition counts of {@code topics} (which must be equal); empty when they are. */
  public static List<String> partitionCountProblems(Admin admin, List<Topic<?, ?>> topics) {
    Map<String, Integer> counts = new TreeMap<>();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
    try {
      Map<String, TopicDescription> descriptions = null;
      while (descriptions == null) {
        try {
          descriptions = admin.describeTopics(topics.stream().map(Topic::name).toList())
              .allTopicNames().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
          // A topic created a moment ago may not be in every broker's metadata yet.
          if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
            return List.of("cannot describe topics: " + e.getCause().getMessage());
          }
          Thread.sleep(METADATA_RETRY_MS);
        }
      }
      descriptions.forEach((name, d) -> counts.put(name, d.partitions().size()));
    } catch (TimeoutException e) {
      return List.of("timed out describing topics after " + TIMEOUT_MS + " ms");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return List.of("interrupted while describing topics");
    }
    if (counts.values().stream().distinct().count() <= 1) {
      return List.of();
    }
    return List.of("topics read by the same stream tasks must have equal partition counts, but they have " + counts
        + ": records of a node would be split across tasks");
  }

  /** The admin's refusal does not say which topic it was; the operator granting the ACL needs that. */
  public static Throwable namingTheTopic(Throwable failure, String topic) {
    return failure instanceof TopicAuthorizationException denied && denied.unauthorizedTopics().isEmpty()
        ? new TopicAuthorizationException(denied.getMessage(), Set.of(topic)) : failure;
  }
}
