package io.quotaflow.embedded;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Proves a started broker serves clients with a real round trip: the cluster answers, a topic is
 * created, a record is acknowledged by all (one) replicas, the topic is deleted again so a kept data
 * directory does not collect them. {@code startup()} returning is not enough: the first client
 * request can still race metadata propagation.
 */
final class BrokerReadiness {
  private BrokerReadiness() {}

  /** {@code clientConfig}: bootstrap servers, and security settings of a user that may create topics. */
  static void await(Map<String, Object> clientConfig, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    String topic = "_quotaflow_readiness_" + UUID.randomUUID();
    Object bootstrapServers = clientConfig.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
    Map<String, Object> admin = new HashMap<>(clientConfig);
    admin.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
    Map<String, Object> producerConfig = new HashMap<>(clientConfig);
    producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
    producerConfig.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout.toMillis());
    try (Admin client = Admin.create(admin)) {
      if (get(client.describeCluster().nodes(), deadline, "describe the cluster").isEmpty()) {
        throw new IllegalStateException("the broker at " + bootstrapServers + " reports no nodes");
      }
      get(client.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all(), deadline, "create topic " + topic);
      try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig, new StringSerializer(),
          new StringSerializer())) {
        get(producer.send(new ProducerRecord<>(topic, "ready")), deadline, "produce to " + topic);
      }
      get(client.deleteTopics(List.of(topic)).all(), deadline, "delete topic " + topic);
    }
  }

  private static <T> T get(Future<T> future, long deadlineNanos, String what) {
    try {
      return future.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting to " + what, e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("broker not ready: cannot " + what + ": " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("broker not ready: timed out waiting to " + what, e);
    }
  }
}
