package io.quotaflow.collector;

import io.quotaflow.schemas.NodePartitioner;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;

/** The collector's producer configuration: the one place its Kafka settings are decided. */
final class ProducerConfigs {

  private ProducerConfigs() {}

  /**
   * {@code clientProperties} (bootstrap, SASL, TLS from {@code --kafka-config}) with the
   * collector's settings. Tuning settings are defaults the file may override; the ones its
   * guarantees rest on are forced.
   */
  static Map<String, Object> producer(Map<String, Object> clientProperties, String node) {
    Map<String, Object> props = new HashMap<>(clientProperties);
    // Forced: a sample counts as published only once every in-sync replica has it, and retries
    // after a broker restart must neither duplicate nor reorder (seq must show only real loss).
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
    // The producer never expires a record it holds: the collector bounds how many it hands over
    // and does its own drop-oldest buffering, which a delivery timeout would bypass.
    props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.MAX_VALUE);
    props.put(ProducerConfig.RETRIES_CONFIG, Integer.MAX_VALUE);
    // Every node-keyed topic is partitioned by the node part of the key (DESIGN "Partitioning").
    props.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, NodePartitioner.class.getName());
    // Defaults. A round's samples leave together: a short linger packs them into one request,
    // fewer requests being most of the producer's CPU. Latency of 20 ms is nothing at 1 Hz.
    props.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 20);
    // Compression would cost CPU on every node to save bytes on a few small requests a second.
    props.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
    // send() blocks only while it has no metadata; bounded so the publisher can put a record back.
    props.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
    props.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "quotaflow-collector-" + node);
    return props;
  }
}
