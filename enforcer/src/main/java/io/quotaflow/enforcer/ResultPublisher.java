package io.quotaflow.enforcer;

import io.quotaflow.cgroups.CgroupCpuRead;
import io.quotaflow.cgroups.Printable;
import io.quotaflow.schemas.EnforcementHeaders;
import io.quotaflow.schemas.NodePartitioner;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes what the enforcer did as {@code EnforcementResult}s, keyed {@code node/task} and
 * node-partitioned like every per-task topic. Sends are asynchronous: a broker outage delays or
 * loses results (counted and logged), never the enforcement itself.
 */
final class ResultPublisher implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ResultPublisher.class);

  private final KafkaProducer<String, EnforcementResult> producer;
  private final Topic<String, EnforcementResult> topic;
  private final String node;
  private final EnforcerMetrics metrics;

  ResultPublisher(Map<String, Object> clientProperties, Topic<String, EnforcementResult> topic, String node,
      EnforcerMetrics metrics) {
    Map<String, Object> config = new HashMap<>(clientProperties);
    config.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, NodePartitioner.class.getName());
    // Results answer decisions one to one: no duplicates from retries, none lost to a leader change.
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    // Results are few and an operator watches them live: do not hold them for batching.
    config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
    // send() blocks the enforcing thread while metadata is missing: bound it, a result is not worth a stall.
    config.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
    config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "quotaflow-enforcer-" + node);
    this.producer = new KafkaProducer<>(config, topic.keySerde().serializer(), topic.valueSerde().serializer());
    this.topic = topic;
    this.node = node;
    this.metrics = metrics;
  }

  /**
   * @param key the decision's key (as received, also for a refused one)
   * @param task the task as the key names it
   */
  void publish(String key, String task, EnforcementKind kind, DecisionRef ref, Outcome outcome, long nowMs) {
    CgroupCpuRead cpu = outcome.cpu();
    EnforcementResult result = EnforcementResult.newBuilder()
        .setNode(node)
        .setTask(task)
        .setTsMs(nowMs)
        .setKind(kind)
        .setStatus(outcome.status())
        .setDetail(outcome.detail())
        .setReadShares(cpu == null ? null : cpu.shares())
        .setReadWeight(cpu == null ? null : cpu.weight())
        .setReadQuotaUs(cpu == null ? null : cpu.quotaUs())
        .setReadPeriodUs(cpu == null ? null : cpu.periodUs())
        .setReadFrozen(outcome.frozen())
        .setReadMemoryBytes(outcome.memoryBytes())
        .setDecisionTopic(ref.topic())
        .setDecisionPartition(ref.partition())
        .setDecisionOffset(ref.offset())
        .build();
    metrics.result(kind, outcome.status());
    if (outcome.status() == EnforcementStatus.UNCHANGED || outcome.status() == EnforcementStatus.DRY_RUN) {
      LOG.debug("{} {}: {}, {} (decision {})", kind, Printable.of(key), outcome.status(), outcome.detail(), ref);
    } else {
      LOG.info("{} {}: {}, {} (decision {})", kind, Printable.of(key), outcome.status(), outcome.detail(), ref);
    }
    ProducerRecord<String, EnforcementResult> record = new ProducerRecord<>(topic.name(), key, result);
    // The streams app reads only the reflex's freezes: the header lets it skip the rest undecoded.
    EnforcementHeaders.putStatus(record.headers(), outcome.status());
    try {
      producer.send(record, (metadata, error) -> {
        if (error != null) {
          metrics.publishFailed();
          LOG.warn("Could not publish the {} result for {} ({}): {}", kind, Printable.of(key), ref, error.toString());
        }
      });
    } catch (KafkaException e) {
      // Serialization (registry down) or a metadata timeout: the cgroup already holds the outcome.
      metrics.publishFailed();
      LOG.warn("Could not publish the {} result for {} ({}): {}", kind, Printable.of(key), ref, e.toString());
    }
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(10));
  }
}
