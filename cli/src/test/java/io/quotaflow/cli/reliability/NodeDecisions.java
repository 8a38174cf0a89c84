package io.quotaflow.cli.reliability;

import io.quotaflow.cgroups.KernelCpuLimits;
import io.quotaflow.schemas.NodePartitioner;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupCpuSettings;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.testharness.KafkaEnv;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * CPU and freeze decisions for one node's tasks, published as the streams app publishes them
 * (keyed {@code node/task}, node-partitioned), each acknowledged before the call returns.
 */
final class NodeDecisions implements AutoCloseable {

  private static final long PERIOD_US = 100_000;

  private final String node;
  private final Topics topics;
  private final KafkaProducer<String, CpuDecision> cpu;
  private final KafkaProducer<String, FreezeDecision> freeze;

  NodeDecisions(KafkaEnv kafka, Topics topics, String node) {
    this.node = node;
    this.topics = topics;
    this.cpu = producer(kafka, topics.cpuDecisions());
    this.freeze = producer(kafka, topics.freezeDecisions());
  }

  private static <V> KafkaProducer<String, V> producer(KafkaEnv kafka, Topic<String, V> topic) {
    Map<String, Object> config = new HashMap<>(kafka.clientConfig());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, NodePartitioner.class.getName());
    return new KafkaProducer<>(config, topic.keySerde().serializer(), topic.valueSerde().serializer());
  }

  /** A decision to write {@code shares} and {@code quotaUs} (-1: none) per 100 ms period. */
  void cpu(String task, long shares, long quotaUs) {
    CpuDecision value = CpuDecision.newBuilder().setNode(node).setTask(task).setTsMs(System.currentTimeMillis())
        .setHardLimitCpu(1).setSoftLimitCpu(shares / 1000.0).setEffectiveLimitCpu(shares / 1000.0)
        .setReason("INITIAL").setApply(true)
        .setCgroup(new CgroupCpuSettings(shares, KernelCpuLimits.weightForShares(shares), quotaUs, PERIOD_US))
        .build();
    send(cpu, new ProducerRecord<>(topics.cpuDecisions().name(), node + "/" + task, value));
  }

  /** A FREEZE with its lease, or a THAW ({@code leaseMs} null), stamped now. */
  void freeze(String task, FreezeAction action, Long leaseMs) {
    FreezeDecision value = FreezeDecision.newBuilder().setNode(node).setTask(task).setTsMs(System.currentTimeMillis())
        .setAction(action).setReason(action == FreezeAction.FREEZE ? "PEAK_SLOT_BUSY" : "SLOT_FREED")
        .setLeaseMs(leaseMs).build();
    send(freeze, new ProducerRecord<>(topics.freezeDecisions().name(), node + "/" + task, value));
  }

  private static <V> void send(KafkaProducer<String, V> producer, ProducerRecord<String, V> record) {
    try {
      producer.send(record).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot publish " + record.key() + " to " + record.topic(), e.getCause());
    }
  }

  @Override
  public void close() {
    cpu.close();
    freeze.close();
  }
}
