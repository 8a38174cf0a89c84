package io.quotaflow.benchmarks;

import io.quotaflow.schemas.NodePartitioning;
import io.quotaflow.schemas.avro.CgroupSample;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongUnaryOperator;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A thread sending the workload's samples round-robin over its tasks, as many as {@code allowance}
 * permits: the allowance maps the nanoseconds since the start to the total that may have been sent
 * by then (a fixed rate, or what the reader has taken plus a backlog). Each record's timestamp is
 * its sample's {@code ts_ms}, so a decision made from it carries that time too. Keys and partitions
 * are computed once per task; the value goes through the topic's own serializer (the registry wire
 * format), as a collector's would.
 */
final class SampleFeed implements AutoCloseable {

  private static final int MAX_BATCH = 1_000;

  private final KafkaProducer<byte[], byte[]> producer;
  private final CpuWorkload workload;
  private final String topic;
  private final Serializer<CgroupSample> values;
  private final LongUnaryOperator allowance;
  private final byte[][] keys;
  private final int[] partitions;
  private final AtomicLong failures = new AtomicLong();
  private final Callback onCompletion = (metadata, exception) -> {
    if (exception != null) {
      failures.incrementAndGet();
    }
  };
  private final Thread thread;
  private volatile boolean stopping;
  private volatile long sent;

  SampleFeed(Map<String, Object> clientProperties, CpuWorkload workload, String topic, int partitionCount,
      Serializer<CgroupSample> values, LongUnaryOperator allowance) {
    this.producer = new KafkaProducer<>(producerConfig(clientProperties), new ByteArraySerializer(), new ByteArraySerializer());
    this.workload = workload;
    this.topic = topic;
    this.values = values;
    this.allowance = allowance;
    keys = new byte[workload.size()][];
    partitions = new int[workload.size()];
    for (int task = 0; task < workload.size(); task++) {
      keys[task] = workload.key(task).getBytes(StandardCharsets.UTF_8);
      partitions[task] = NodePartitioning.partitionOfKey(workload.key(task), partitionCount);
    }
    thread = new Thread(this::run, "bench-feed-" + topic);
    thread.setDaemon(true);
  }

  /** A collector's guarantees (acks all, idempotent) with a short linger: the latency run measures the app, not batching. */
  static Map<String, Object> producerConfig(Map<String, Object> clientProperties) {
    Map<String, Object> config = new HashMap<>(clientProperties);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    config.put(ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024);
    config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
    return config;
  }

  SampleFeed start() {
    thread.start();
    return this;
  }

  long sent() {
    return sent;
  }

  long failures() {
    return failures.get();
  }

  private void run() {
    long startNanos = System.nanoTime();
    long count = 0;
    int task = 0;
    while (!stopping) {
      long allowed = allowance.applyAsLong(System.nanoTime() - startNanos);
      if (count >= allowed) {
        LockSupport.parkNanos(200_000);
        continue;
      }
      long batchEnd = Math.min(allowed, count + MAX_BATCH);
      long nowMs = System.currentTimeMillis();
      for (; count < batchEnd && !stopping; count++) {
        byte[] value = values.serialize(topic, workload.next(task, nowMs));
        producer.send(new ProducerRecord<>(topic, partitions[task], nowMs, keys[task], value), onCompletion);
        task = task + 1 == keys.length ? 0 : task + 1;
      }
      sent = count;
    }
    producer.flush();
  }

  @Override
  public void close() throws InterruptedException {
    stopping = true;
    thread.join();
    producer.close();
  }
}
