package io.quotaflow.benchmarks;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A {@code read_committed} reader of every partition of one topic from its end, on its own thread,
 * as an enforcer or a data team's tool reads: it counts what it receives and, for records whose
 * timestamp falls in the measured window, records receive time minus record timestamp. The
 * timestamp is the sample's {@code ts_ms} (the feed sets it; Kafka Streams passes it on to the
 * decision), so the latency is sample time → visible to a reader. Tombstones count, but have no
 * latency: they are not decisions.
 */
final class RecordWatch implements AutoCloseable {

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Latencies latencies = new Latencies();
  private final Thread thread;
  private volatile boolean stopping;
  private volatile long received;
  private volatile long windowStartMs = Long.MAX_VALUE;
  private volatile long windowEndMs = Long.MAX_VALUE;

  RecordWatch(Map<String, Object> clientProperties, String topic, int partitions) {
    Map<String, Object> config = new HashMap<>(clientProperties);
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
    consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> all = IntStream.range(0, partitions)
        .mapToObj(p -> new TopicPartition(topic, p)).toList();
    consumer.assign(all);
    consumer.seekToEnd(all);
    all.forEach(consumer::position); // resolve "end" now, not at the first poll
    thread = new Thread(this::run, "bench-watch-" + topic);
    thread.setDaemon(true);
  }

  RecordWatch start() {
    thread.start();
    return this;
  }

  long received() {
    return received;
  }

  /** Latencies count for records stamped from {@code startMs} on, until {@link #closeWindow}. */
  void openWindow(long startMs) {
    windowStartMs = startMs;
  }

  void closeWindow(long endMs) {
    windowEndMs = endMs;
  }

  private void run() {
    long count = 0;
    while (!stopping) {
      ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(50));
      long nowMs = System.currentTimeMillis();
      for (ConsumerRecord<byte[], byte[]> record : records) {
        count++;
        long ts = record.timestamp();
        if (record.value() != null && ts >= windowStartMs && ts < windowEndMs) {
          latencies.record(nowMs - ts);
        }
      }
      received = count;
    }
  }

  /** Stops the reader; the latencies are final once it returns. */
  Latencies.Summary stop() throws InterruptedException {
    stopping = true;
    thread.join();
    return latencies.summary();
  }

  @Override
  public void close() throws InterruptedException {
    if (!stopping) {
      stop();
    }
    consumer.close();
  }
}
