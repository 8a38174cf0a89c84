package io.quotaflow.testharness;

import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * Topics of one test: names unique across tests and runs (the broker is shared, and an external one
 * outlives the run), created and usable (every partition has a leader) before the call returns.
 */
public final class TestTopics {
  private static final AtomicInteger COUNTER = new AtomicInteger();
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private TestTopics() {}

  /** {@code base}, a counter and a random suffix: {@code samples-3-1f2e4d5c}. */
  public static String uniqueName(String base) {
    return base + "-" + COUNTER.incrementAndGet() + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** A topic prefix for a whole catalogue ({@code Topics.Settings#prefix}), ending in a dot. */
  public static String uniquePrefix(String base) {
    return uniqueName(base) + ".";
  }

  /** Creates a topic named after {@code base} with {@code partitions} partitions; returns its name. */
  public static String create(KafkaEnv env, String base, int partitions) {
    return create(env, base, partitions, Map.of());
  }

  public static String create(KafkaEnv env, String base, int partitions, Map<String, String> configs) {
    String name = uniqueName(base);
    create(env, List.of(new NewTopic(name, partitions, (short) 1).configs(configs)));
    return name;
  }

  /** Creates every topic of a catalogue (use a {@link #uniquePrefix}), with replication factor 1. */
  public static void createAll(KafkaEnv env, Topics topics) {
    create(env, topics.all().stream().map(topic -> topic.newTopic((short) 1)).toList());
  }

  /** Creates one catalogue topic with replication factor 1. */
  public static void create(KafkaEnv env, Topic<?, ?> topic) {
    create(env, List.of(topic.newTopic((short) 1)));
  }

  private static void create(KafkaEnv env, List<NewTopic> topics) {
    List<String> names = topics.stream().map(NewTopic::name).toList();
    try (Admin admin = env.admin()) {
      admin.createTopics(topics).all().get(TIMEOUT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
      KafkaWait.until(TIMEOUT, "every partition of " + names + " has a leader", () -> allLed(admin, names));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating " + names, e);
    } catch (Exception e) {
      throw new IllegalStateException("cannot create test topics " + names + ": " + e, e);
    }
  }

  private static boolean allLed(Admin admin, List<String> names) {
    try {
      Map<String, TopicDescription> described = admin.describeTopics(names).allTopicNames().get();
      return described.values().stream()
          .flatMap(d -> d.partitions().stream())
          .map(TopicPartitionInfo::leader)
          .allMatch(leader -> leader != null && !leader.isEmpty());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (Exception e) {
      return false; // metadata not there yet: ask again
    }
  }
}
