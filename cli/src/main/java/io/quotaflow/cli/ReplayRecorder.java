package io.quotaflow.cli;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.schemas.GroupLag;
import io.quotaflow.embedded.Directories;
import io.quotaflow.schemas.NodePartitioner;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.TopicAdmin;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import io.quotaflow.streams.topology.StreamsRunner;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Makes the recording {@code quotaflow bench replay} replays: the topics created as
 * {@code quotaflow streams} creates them (samples with the broker's append time), the cluster
 * config, node statuses and task specs published once the real streams app runs, then the samples,
 * a few seconds of every task at a time, and the app left to decide them until its group has
 * consumed everything.
 */
final class ReplayRecorder {

  /** Seconds of samples per producer flush: a few seconds of every task, as collectors batching their sends. */
  static final int CHUNK_S = 5;
  private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
  private static final Duration CATCH_UP_TIMEOUT = Duration.ofMinutes(5);

  /**
   * @param readFromMs before the first record of the recording: nothing of it precedes the replay's read
   * @param toMs after its last record
   * @param samples samples produced
   * @param seconds wall time of the recording: the app's start, the setup, the feed and the app catching up
   */
  record Recorded(long readFromMs, long toMs, long samples, double seconds) {}

  private final Map<String, Object> client;
  private final SchemaRegistryClient registry;
  private final Topics topics;

  ReplayRecorder(Map<String, Object> client, SchemaRegistryClient registry, Topics topics) {
    this.client = client;
    this.registry = registry;
    this.topics = topics;
  }

  Recorded record(ReplayWorkload workload, int seconds) throws InterruptedException {
    long startNs = System.nanoTime();
    List<Topic<?, ?>> wanted = new ArrayList<>(topics.all());
    wanted.addAll(topics.internal());
    String applicationId = topics.settings().prefix() + "streams";
    List<String> consumed = List.of(topics.clusterConfig().name(), topics.poolConfigs().name(), topics.nodes().name(),
        topics.taskSpecs().name(), topics.samples().name(), topics.configBroadcast().name(), topics.poolPartials().name(),
        topics.memoryUsage().name());
    Path state = Directories.temporary("quotaflow-bench-replay-");
    try (Admin admin = Admin.create(new HashMap<>(client))) {
      TopicAdmin.createMissing(admin, wanted, Optional.empty()); // what StreamsRunner does at start: samples with LogAppendTime
      long readFromMs = System.currentTimeMillis() - 1_000;
      long samples = 0;
      try (StreamsRunner app = start(applicationId, state)) {
        long nowMs = System.currentTimeMillis();
        // Sample times end now: the app refuses a ts_ms more than 5 minutes from the broker's append time.
        long sampleStartMs = (nowMs - seconds * 1_000L) / 1_000 * 1_000;
        publishSetup(workload, sampleStartMs, nowMs);
        // Configs and specs taken (the cluster config broadcast to every partition) before the first sample, as in a live cluster.
        GroupLag.awaitCaughtUp(admin, applicationId, consumed, CATCH_UP_TIMEOUT);
        try (KafkaProducer<String, CgroupSample> producer = producer(topics.samples())) {
          // Chunk after chunk without waiting for the app: a pause would leave a gap in the broker's append time, which the
          // gate's silent-node punctuator (partition stream time) reads as nodes falling silent; live collectors leave none.
          for (int from = 0; from < seconds; from += CHUNK_S) {
            for (int s = from; s < Math.min(seconds, from + CHUNK_S); s++) {
              for (int task = 0; task < workload.size(); task++) {
                producer.send(new ProducerRecord<>(topics.samples().name(), workload.key(task),
                    workload.sample(task, s, sampleStartMs + s * 1_000L)));
                samples++;
              }
            }
            producer.flush();
          }
        }
        GroupLag.awaitCaughtUp(admin, applicationId, consumed, CATCH_UP_TIMEOUT);
        if (!app.health().live()) {
          throw new IllegalStateException("the streams app stopped during the recording (" + app.state() + ")");
        }
      }
      return new Recorded(readFromMs, System.currentTimeMillis() + 1_000, samples, (System.nanoTime() - startNs) / 1e9);
    } finally {
      Directories.deleteRecursively(state);
    }
  }

  private void publishSetup(ReplayWorkload workload, long submittedMs, long nowMs) {
    try (var producer = producer(topics.clusterConfig())) {
      producer.send(new ProducerRecord<>(topics.clusterConfig().name(), "main", workload.cluster()));
    }
    try (var producer = producer(topics.nodes())) {
      workload.nodeStatuses(nowMs).forEach(n -> producer.send(new ProducerRecord<>(topics.nodes().name(), n.getNode(), n)));
    }
    try (var producer = producer(topics.taskSpecs())) {
      for (int task = 0; task < workload.size(); task++) {
        producer.send(new ProducerRecord<>(topics.taskSpecs().name(), workload.key(task), workload.spec(task, submittedMs)));
      }
    }
  }

  /** Node-partitioned, acks all: as a collector or an operator tool produces. */
  private <V> KafkaProducer<String, V> producer(Topic<String, V> topic) {
    Map<String, Object> props = new HashMap<>(client);
    props.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, NodePartitioner.class.getName());
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    props.put(ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024);
    return new KafkaProducer<>(props, topic.keySerde().serializer(), topic.valueSerde().serializer());
  }

  private StreamsRunner start(String applicationId, Path state) throws InterruptedException {
    Map<String, Object> overrides = new HashMap<>();
    overrides.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    overrides.put(StreamsConfig.STATE_DIR_CONFIG, state.toString());
    StreamsRunner runner = StreamsRunner.start(new StreamsRunner.Settings(client, overrides, topics.settings(), Optional.empty()),
        registry, new SimpleMeterRegistry());
    if (!runner.awaitRunning(START_TIMEOUT)) {
      runner.close();
      throw new IllegalStateException("the streams app did not reach RUNNING within " + START_TIMEOUT.toMinutes() + " min: "
          + runner.state());
    }
    return runner;
  }
}
