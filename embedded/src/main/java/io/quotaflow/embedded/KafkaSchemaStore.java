package io.quotaflow.embedded;

import io.quotaflow.schemas.registry.CompatibilityLevel;
import io.quotaflow.schemas.registry.InMemorySchemaRegistryClient;
import io.quotaflow.schemas.registry.SchemaMetadata;
import io.quotaflow.schemas.registry.SchemaRegistryException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry's durable state: a compacted single-partition topic. Every change is written and
 * acknowledged by all in-sync replicas before the registry applies it and answers (the
 * {@link InMemorySchemaRegistryClient.Journal} contract), and on start the topic is replayed to its
 * end, so a restarted registry serves the same ids. One partition keeps the changes in one order.
 */
final class KafkaSchemaStore implements InMemorySchemaRegistryClient.Journal, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaSchemaStore.class);
  /** Confluent's registry errors for a failed and a timed-out store write. */
  static final int STORE_ERROR_CODE = 50001;
  static final int STORE_TIMEOUT_CODE = 50002;

  private final String topic;
  private final TopicPartition partition;
  private final Duration timeout;
  private final KafkaProducer<String, String> producer;
  private final KafkaConsumer<String, String> consumer;
  /** Set when a write may or may not have reached the topic: the next write first re-reads it. */
  private volatile boolean uncertain;

  private KafkaSchemaStore(RegistrySettings settings) {
    this.topic = settings.topic();
    this.partition = new TopicPartition(topic, 0);
    this.timeout = settings.storeTimeout();
    this.producer = new KafkaProducer<>(producerConfig(settings), new StringSerializer(), new StringSerializer());
    this.consumer = new KafkaConsumer<>(consumerConfig(settings), new StringDeserializer(), new StringDeserializer());
    consumer.assign(List.of(partition));
    consumer.seekToBeginning(List.of(partition));
  }

  /** Creates the topic when missing, checks it when present, and opens the clients. */
  static KafkaSchemaStore open(RegistrySettings settings) {
    ensureTopic(settings);
    return new KafkaSchemaStore(settings);
  }

  /** Reads the topic from where this store last read to its current end, applying every entry to {@code registry}. */
  void catchUp(InMemorySchemaRegistryClient registry) {
    long deadline = System.nanoTime() + timeout.toNanos();
    long end = consumer.endOffsets(List.of(partition), timeout).get(partition);
    int applied = 0;
    while (consumer.position(partition, timeout) < end) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("could not read schema store topic " + topic + " to its end offset " + end
            + " within " + timeout + " (at " + consumer.position(partition) + ")");
      }
      for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
        String where = topic + "-0@" + record.offset();
        Optional<StoreEntry> entry = StoreCodec.decode(record.key(), record.value(), where);
        if (entry.isEmpty()) {
          LOG.warn("Schema store record at {} is not a schema or compatibility level this registry applies (deleted "
              + "versions are not supported); skipped", where);
          continue;
        }
        apply(registry, entry.get());
        applied++;
      }
    }
    uncertain = false;
    LOG.debug("Read {} entries from schema store {} up to offset {}", applied, topic, end);
  }

  /** Re-reads the topic if an earlier write's outcome is unknown, so an id is never handed out twice. */
  void catchUpIfUncertain(InMemorySchemaRegistryClient registry) {
    if (uncertain) {
      LOG.warn("An earlier write to schema store {} may have landed; re-reading it before the next write", topic);
      catchUp(registry);
    }
  }

  private static void apply(InMemorySchemaRegistryClient registry, StoreEntry entry) {
    if (entry instanceof StoreEntry.SchemaRegistered r) {
      registry.replay(r.registration());
    } else if (entry instanceof StoreEntry.CompatibilitySet c) {
      registry.replayCompatibility(c.subject(), c.level());
    }
  }

  @Override
  public void registered(SchemaMetadata registration) {
    write(new StoreEntry.SchemaRegistered(registration), "schema version " + registration.version() + " of subject '"
        + registration.subject() + "'");
  }

  @Override
  public void compatibilityChanged(String subjectOrNullForGlobal, CompatibilityLevel level) {
    write(new StoreEntry.CompatibilitySet(subjectOrNullForGlobal, level), "compatibility level "
        + (subjectOrNullForGlobal == null ? "(global)" : "of subject '" + subjectOrNullForGlobal + "'"));
  }

  private void write(StoreEntry entry, String what) {
    StoreCodec.Encoded encoded = StoreCodec.encode(entry);
    try {
      producer.send(new ProducerRecord<>(topic, 0, encoded.key(), encoded.value())).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      uncertain = true;
      Thread.currentThread().interrupt();
      throw new SchemaRegistryException(500, STORE_ERROR_CODE, "interrupted while storing " + what);
    } catch (TimeoutException e) {
      uncertain = true;
      throw new SchemaRegistryException(500, STORE_TIMEOUT_CODE, "timed out after " + timeout + " storing " + what
          + " in topic " + topic);
    } catch (ExecutionException e) {
      uncertain = true;
      throw new SchemaRegistryException(500, STORE_ERROR_CODE, "cannot store " + what + " in topic " + topic + ": "
          + e.getCause());
    }
  }

  @Override
  public void close() {
    producer.close(timeout);
    consumer.close();
  }

  private static void ensureTopic(RegistrySettings settings) {
    try (Admin admin = Admin.create(clientConfig(settings))) {
      TopicDescription description = describe(admin, settings);
      if (description == null) {
        description = create(admin, settings);
      }
      if (description.partitions().size() != 1) {
        throw new IllegalStateException("schema store topic " + settings.topic() + " has " + description.partitions().size()
            + " partitions; it must have exactly one, so that changes keep one order");
      }
      Config config = await(admin.describeConfigs(List.of(topicResource(settings))).all(), settings, "describe topic configs")
          .get(topicResource(settings));
      String policy = config.get(TopicConfig.CLEANUP_POLICY_CONFIG).value();
      if (!policy.contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
        LOG.warn("Schema store topic {} has cleanup.policy={}; with deletion its schemas are lost after retention. "
            + "Set it to compact.", settings.topic(), policy);
      }
    }
  }

  private static TopicDescription describe(Admin admin, RegistrySettings settings) {
    try {
      return admin.describeTopics(List.of(settings.topic())).allTopicNames().get(timeoutMillis(settings), TimeUnit.MILLISECONDS)
          .get(settings.topic());
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return null;
      }
      throw new IllegalStateException("cannot describe schema store topic " + settings.topic() + ": " + e.getCause(), e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      throw failed(e, "describe schema store topic " + settings.topic());
    }
  }

  private static TopicDescription create(Admin admin, RegistrySettings settings) {
    int brokers = await(admin.describeCluster().nodes(), settings, "describe the cluster").size();
    short replicas = (short) (settings.replicationFactor() > 0 ? settings.replicationFactor() : Math.min(3, brokers));
    NewTopic newTopic = new NewTopic(settings.topic(), 1, replicas).configs(Map.of(
        TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
    try {
      admin.createTopics(List.of(newTopic)).all().get(timeoutMillis(settings), TimeUnit.MILLISECONDS);
      LOG.info("Created schema store topic {} (1 partition, {} replicas, compacted)", settings.topic(), replicas);
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new IllegalStateException("cannot create schema store topic " + settings.topic() + ": " + e.getCause(), e.getCause());
      } // another registry created it meanwhile: use it
    } catch (InterruptedException | TimeoutException e) {
      throw failed(e, "create schema store topic " + settings.topic());
    }
    // The controller has the topic; the broker answering may learn of it a moment later.
    long deadline = System.nanoTime() + settings.storeTimeout().toNanos();
    long pauseMillis = 10;
    TopicDescription description;
    while ((description = describe(admin, settings)) == null) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("schema store topic " + settings.topic() + " was created but is not visible after "
            + settings.storeTimeout());
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(pauseMillis)); // a pause between two checks
      pauseMillis = Math.min(pauseMillis * 2, 200);
    }
    return description;
  }

  private static ConfigResource topicResource(RegistrySettings settings) {
    return new ConfigResource(ConfigResource.Type.TOPIC, settings.topic());
  }

  private static <T> T await(org.apache.kafka.common.KafkaFuture<T> future, RegistrySettings settings, String what) {
    try {
      return future.get(timeoutMillis(settings), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot " + what + " for the schema store: " + e.getCause(), e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      throw failed(e, what);
    }
  }

  private static IllegalStateException failed(Exception e, String what) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
      return new IllegalStateException("interrupted while trying to " + what, e);
    }
    return new IllegalStateException("timed out trying to " + what, e);
  }

  private static long timeoutMillis(RegistrySettings settings) {
    return settings.storeTimeout().toMillis();
  }

  private static Map<String, Object> clientConfig(RegistrySettings settings) {
    Map<String, Object> config = new HashMap<>(settings.kafkaConfig());
    config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
    return config;
  }

  private static Map<String, Object> producerConfig(RegistrySettings settings) {
    Map<String, Object> config = clientConfig(settings);
    int timeoutMs = (int) timeoutMillis(settings);
    // A schema id is answered only once every in-sync replica has it; idempotence keeps a retried
    // write from landing twice.
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeoutMs);
    config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.max(1, timeoutMs / 2));
    config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, timeoutMs);
    return config;
  }

  private static Map<String, Object> consumerConfig(RegistrySettings settings) {
    Map<String, Object> config = clientConfig(settings);
    // No group: the store is always read from the beginning by partition assignment.
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    return config;
  }
}
