package io.quotaflow.collector;

import io.quotaflow.cgroups.CgroupException;
import io.quotaflow.cgroups.Cgroups;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.process.ClusterConnection;
import io.quotaflow.process.ProcessException;
import io.quotaflow.schemas.registry.RegistryUnavailableException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The collector's start-up steps, each turning what an operator can get wrong (cgroup root,
 * broker, registry) into a {@link CollectorException} with a one-line message.
 */
final class StartupChecks {

  static final Duration START_TIMEOUT = Duration.ofSeconds(15);

  private StartupChecks() {}

  static Cgroups openCgroups(CollectorSettings settings) {
    try {
      return Cgroups.open(settings.cgroups());
    } catch (CgroupException e) {
      throw new CollectorException("cgroups: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new CollectorException("cannot read the cgroup tree under " + settings.cgroups().root() + ": "
          + e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      throw new CollectorException(e.getMessage(), e);
    }
  }

  static NodeFacts readFacts() {
    try {
      return NodeFacts.read();
    } catch (IOException | RuntimeException e) {
      throw new CollectorException("cannot read this node's memory and CPUs: " + e.getMessage(), e);
    }
  }

  static void requireTopics(Map<String, Object> clientProperties, List<String> names) {
    try {
      ClusterConnection.requireTopics(clientProperties, names);
    } catch (ProcessException e) {
      throw new CollectorException(e.getMessage(), e.getCause());
    }
  }

  /**
   * Encodes the first node status and a throwaway sample, which registers (or looks up) both
   * schemas and caches their ids: an unreachable registry is reported now, not on the first
   * sample, and later registry outages cannot touch sampling.
   */
  static Outgoing registerSchemas(RecordEncoder encoder, SampleBuilder builder, NodeFacts facts,
      Cgroups cgroups) {
    try {
      Outgoing status = encoder.status(facts.toStatus(builder.node(), System.currentTimeMillis(), cgroups.version()));
      encoder.sample(builder.node() + "/probe", builder.gone(TaskId.of("probe"), 0, null, -1));
      return status;
    } catch (RegistryUnavailableException e) {
      throw new CollectorException("cannot reach the schema registry: " + e.getMessage(), e);
    } catch (SerializationException e) {
      throw new CollectorException("the schema registry refused the collector's schemas: " + e.getMessage(), e);
    }
  }

  static Producer<String, byte[]> newProducer(Map<String, Object> clientProperties, String node,
      String bootstrap) {
    try {
      return new KafkaProducer<>(ProducerConfigs.producer(clientProperties, node), new StringSerializer(),
          new ByteArraySerializer());
    } catch (KafkaException e) {
      throw new CollectorException("cannot create a Kafka producer for " + bootstrap + ": "
          + ProcessException.rootMessage(e), e);
    }
  }

  static void publishNow(Producer<String, byte[]> producer, Outgoing record, String bootstrap) {
    try {
      producer.send(new ProducerRecord<>(record.topic(), null, record.tsMs(), record.key(), record.value()))
          .get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new CollectorException("cannot publish to " + record.topic() + " at " + bootstrap + ": "
          + ProcessException.rootMessage(e.getCause()), e.getCause());
    } catch (TimeoutException e) {
      throw new CollectorException("timed out after " + START_TIMEOUT.toSeconds() + " s publishing to "
          + record.topic() + " at " + bootstrap, e);
    } catch (KafkaException e) {
      throw new CollectorException("cannot publish to " + record.topic() + " at " + bootstrap + ": "
          + ProcessException.rootMessage(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CollectorException("interrupted while publishing the first node status", e);
    }
  }
}
