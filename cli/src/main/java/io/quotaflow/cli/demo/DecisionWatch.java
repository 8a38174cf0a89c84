package io.quotaflow.cli.demo;

import io.quotaflow.schemas.NodePartitioning;
import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.GateTable;
import io.quotaflow.schemas.avro.PoolState;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's partition of {@code cpu-decisions}, {@code freeze-decisions}, {@code gate-tables} and {@code
 * enforcement-results}, and {@code pool-state}, read as a data team's consumer would ({@code
 * read_committed}, the streams app writes in transactions): the latest CPU and freeze decision and CPU
 * and freeze result of each task, the node's gate table, the latest state of each pool, and counts for
 * the closing summary.
 */
public final class DecisionWatch implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DecisionWatch.class);

  private final Topics topics;
  private final KafkaConsumer<String, byte[]> consumer;
  private final Map<String, CpuDecision> decisions = new ConcurrentHashMap<>();
  private final Map<String, FreezeDecision> freezes = new ConcurrentHashMap<>();
  private final Map<String, EnforcementResult> results = new ConcurrentHashMap<>();
  private final Map<String, EnforcementResult> freezeResults = new ConcurrentHashMap<>();
  private volatile GateTable gateTable;
  private final Map<String, PoolState> pools = new ConcurrentHashMap<>();
  private final AtomicLong decisionCount = new AtomicLong();
  private final AtomicLong appliedCount = new AtomicLong();
  private final AtomicLong freezeCount = new AtomicLong();
  private final AtomicLong thawCount = new AtomicLong();
  private final Thread thread;

  private DecisionWatch(Topics topics, KafkaConsumer<String, byte[]> consumer) {
    this.topics = topics;
    this.consumer = consumer;
    this.thread = new Thread(this::run, "quotaflow-demo-decisions");
    this.thread.setDaemon(true);
  }

  public static DecisionWatch start(Map<String, Object> clientProperties, Topics topics, String node) {
    Map<String, Object> props = new HashMap<>(clientProperties);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
    consumer.assign(List.of(partitionOf(topics.cpuDecisions(), node), partitionOf(topics.freezeDecisions(), node),
        partitionOf(topics.enforcementResults(), node), partitionOf(topics.gateTables(), node),
        new TopicPartition(topics.poolState().name(), 0)));
    DecisionWatch watch = new DecisionWatch(topics, consumer);
    watch.thread.start();
    return watch;
  }

  private static TopicPartition partitionOf(Topic<String, ?> topic, String node) {
    return new TopicPartition(topic.name(), NodePartitioning.partitionOfNode(node, topic.partitions()));
  }

  private void run() {
    try {
      while (true) {
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
          try {
            handle(record);
          } catch (IllegalArgumentException | SerializationException e) {
            // Someone else's record on our topic (a bad key, another schema): not the demo's to show.
            LOG.debug("demo: skipped {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), e.toString());
          }
        }
      }
    } catch (WakeupException closing) {
      // close() asked
    } catch (RuntimeException e) {
      LOG.warn("demo: stopped reading decisions: {}", e.toString());
    } finally {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  private void handle(ConsumerRecord<String, byte[]> record) {
    if (record.key() == null) {
      return;
    }
    if (record.topic().equals(topics.poolState().name())) {
      if (record.value() == null) {
        pools.remove(record.key()); // the pool is no longer configured and has no task
      } else {
        pools.put(record.key(), decode(topics.poolState(), record));
      }
      return;
    }
    if (record.topic().equals(topics.gateTables().name())) {
      gateTable = record.value() == null ? null : decode(topics.gateTables(), record);
      return;
    }
    String task = TaskKey.parse(record.key()).task();
    if (record.value() == null) {
      if (record.topic().equals(topics.freezeDecisions().name())) {
        freezes.remove(task); // the gate forgot a task that is gone: no decision of it stands
      }
      return;
    }
    if (record.topic().equals(topics.cpuDecisions().name())) {
      decisions.put(task, decode(topics.cpuDecisions(), record));
      decisionCount.incrementAndGet();
    } else if (record.topic().equals(topics.freezeDecisions().name())) {
      FreezeDecision freeze = decode(topics.freezeDecisions(), record);
      FreezeDecision before = freezes.put(task, freeze);
      if (freeze.getAction() == FreezeAction.THAW) {
        thawCount.incrementAndGet();
      } else if (before == null || before.getAction() != FreezeAction.FREEZE) {
        freezeCount.incrementAndGet(); // a renewal of a freeze is not another freeze
      }
    } else {
      EnforcementResult result = decode(topics.enforcementResults(), record);
      if (result.getKind() == EnforcementKind.CPU) {
        results.put(task, result);
        if (result.getStatus() == EnforcementStatus.APPLIED) {
          appliedCount.incrementAndGet();
        }
      } else {
        freezeResults.put(task, result);
      }
    }
  }

  private static <V> V decode(Topic<String, V> topic, ConsumerRecord<String, byte[]> record) {
    return topic.valueSerde().deserializer().deserialize(record.topic(), record.headers(), record.value());
  }

  public Optional<CpuDecision> decision(String task) {
    return Optional.ofNullable(decisions.get(task));
  }

  /** The task's latest freeze decision (FREEZE, a renewal, or THAW). */
  public Optional<FreezeDecision> freeze(String task) {
    return Optional.ofNullable(freezes.get(task));
  }

  /** The pool's latest {@code pool-state}: its volume, fair share and what its tasks ask for, as of its {@code ts_ms}. */
  public Optional<PoolState> pool(String pool) {
    return Optional.ofNullable(pools.get(pool));
  }

  public Optional<EnforcementResult> result(String task) {
    return Optional.ofNullable(results.get(task));
  }

  /** The enforcer's latest answer to a freeze decision of the task, or its reflex's freeze of it. */
  public Optional<EnforcementResult> freezeResult(String task) {
    return Optional.ofNullable(freezeResults.get(task));
  }

  /** The node's gate as the streams app last published it on {@code gate-tables}. */
  public Optional<GateTable> gateTable() {
    return Optional.ofNullable(gateTable);
  }

  /** CPU decisions read so far. */
  public long decisionCount() {
    return decisionCount.get();
  }

  /** Tasks frozen by a decision so far (renewals of a freeze not counted again). */
  public long freezeCount() {
    return freezeCount.get();
  }

  /** THAW decisions read so far. */
  public long thawCount() {
    return thawCount.get();
  }

  /** CPU results with status APPLIED read so far. */
  public long appliedCount() {
    return appliedCount.get();
  }

  @Override
  public void close() throws InterruptedException {
    consumer.wakeup();
    thread.join(Duration.ofSeconds(10).toMillis());
  }
}
