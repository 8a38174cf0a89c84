package io.quotaflow.collector;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cgroups.Sandboxes;
import io.quotaflow.cgroups.CgroupSandbox;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.embedded.BrokerSettings;
import io.quotaflow.embedded.EmbeddedKafka;
import io.quotaflow.embedded.Ports;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker stopped and started again under a running collector: a broker of the test's own on a
 * {@code @TempDir} with fixed ports, so the restart is the same broker at the same address. The
 * registry is the shared one (schemas are cached by then anyway). Samples come from real, empty
 * groups: what matters here is their {@code seq}, not their values.
 */
@WithKafka
class CollectorBrokerRestartTest {

  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final Duration PERIOD = Duration.ofMillis(100);

  @TempDir Path dataDir;
  CgroupSandbox sandbox;
  BrokerSettings brokerSettings;
  EmbeddedKafka broker;

  @BeforeEach
  void setUp() throws Exception {
    sandbox = Sandboxes.openOrSkip(CgroupLayout.AUTO);
    sandbox.group("alpha");
    sandbox.group("beta");
    brokerSettings = BrokerSettings.defaults().withDataDir(dataDir)
        .withPort(Ports.free("localhost")).withControllerPort(Ports.free("localhost"));
    broker = EmbeddedKafka.start(brokerSettings);
  }

  @AfterEach
  void tearDown() throws Exception {
    try {
      if (broker != null) {
        broker.close();
      }
    } finally {
      sandbox.close();
    }
  }

  /** Runs a collector across a broker restart; returns the samples in the topic, in offset order. */
  List<CgroupSample> runAcrossARestart(KafkaEnv shared, int bufferCapacity, int samplesWhileDown,
      CollectorMetrics[] metricsOut) {
    KafkaEnv own = new KafkaEnv(broker.bootstrapServers(), shared.registryUrl());
    Topics topics = Topics.create(new Topics.Settings(TestTopics.uniquePrefix("restart"), 2, true), shared.registryClient());
    TestTopics.create(own, topics.samples());
    TestTopics.create(own, topics.nodes());
    CollectorSettings settings = CollectorSettings.defaults("node-r", sandbox.config()).withPeriod(PERIOD)
        .withBufferCapacity(bufferCapacity).withOps("127.0.0.1", 0);
    try (Collector collector = Collector.start(settings, own.clientConfig(), topics)) {
      metricsOut[0] = collector.metrics();
      KafkaWait.until(PATIENCE, "20 samples published", () -> collector.metrics().samplesPublished() >= 20);

      broker.close();
      broker = null;
      KafkaWait.until(PATIENCE, "the collector to notice the broker is gone", () -> !collector.health().ready());
      long publishedBefore = collector.metrics().samplesPublished();
      KafkaWait.until(PATIENCE, samplesWhileDown + " samples taken while the broker is down", () ->
          collector.metrics().samplesDropped() + collector.buffered() >= samplesWhileDown);
      assertThat(collector.metrics().samplesPublished()).as("nothing is acknowledged without a broker")
          .isEqualTo(publishedBefore);

      broker = EmbeddedKafka.start(brokerSettings);
      KafkaWait.until(PATIENCE, "the collector to publish again", () -> collector.health().ready()
          && collector.metrics().samplesPublished() > publishedBefore + samplesWhileDown);
    }
    // Closed: sampling stopped and everything left was delivered, so the counts are final.
    CollectorMetrics metrics = metricsOut[0];
    long generated = metrics.samplesPublished() + metrics.samplesDropped();
    long expected = metrics.samplesPublished();
    List<ConsumerRecord<String, CgroupSample>> records = KafkaWait.recordsUntil(own, topics.samples().name(),
        topics.samples().keySerde().deserializer(), topics.samples().valueSerde().deserializer(),
        seen -> seen.size() >= expected, expected + " samples", PATIENCE);
    assertThat(records).hasSize((int) expected);
    assertThat(metrics.publishErrors()).isZero();
    List<CgroupSample> samples = new ArrayList<>(records.stream()
        .sorted(Comparator.comparingLong(ConsumerRecord::offset)).map(ConsumerRecord::value).toList());
    assertThat(samples.get(samples.size() - 1).getSeq()).as("every sample taken was published or dropped")
        .isEqualTo(generated - 1);
    return samples;
  }

  static List<Long> seqs(List<CgroupSample> samples) {
    return samples.stream().map(CgroupSample::getSeq).toList();
  }

  @Test
  void samplesTakenWhileTheBrokerIsAwayArriveInOrderWithNoGapWithinTheBuffer(KafkaEnv shared) {
    CollectorMetrics[] metrics = new CollectorMetrics[1];
    List<CgroupSample> samples = runAcrossARestart(shared, 10_000, 40, metrics);
    assertThat(metrics[0].samplesDropped()).isZero();
    // Idempotent retries: no duplicate, no reordering, no gap.
    assertThat(seqs(samples)).containsExactlyElementsOf(LongStream.range(0, samples.size()).boxed().toList());
  }

  @Test
  void aFullBufferDropsTheOldestBufferedSamplesAndTheGapInSeqIsExactlyTheDropCount(KafkaEnv shared) {
    CollectorMetrics[] metrics = new CollectorMetrics[1];
    int capacity = 8;
    List<CgroupSample> samples = runAcrossARestart(shared, capacity, 60, metrics);
    long dropped = metrics[0].samplesDropped();
    assertThat(dropped).as("samples dropped while the broker was away").isPositive();
    List<Long> seqs = seqs(samples);
    assertThat(seqs).as("still in order, no duplicates").isSorted().doesNotHaveDuplicates();
    long missing = seqs.get(seqs.size() - 1) + 1 - seqs.size();
    assertThat(missing).isEqualTo(dropped);
    // The records the producer held went first, the buffer's newest after; a record held through a
    // metadata wait splits the gap around it (docs/collector.md): the gaps add up to the drops.
    List<Long> gaps = new ArrayList<>();
    for (int i = 1; i < seqs.size(); i++) {
      if (seqs.get(i) != seqs.get(i - 1) + 1) {
        gaps.add(seqs.get(i) - seqs.get(i - 1) - 1);
      }
    }
    assertThat(gaps).isNotEmpty();
    assertThat(gaps.stream().mapToLong(Long::longValue).sum()).isEqualTo(dropped);
  }
}
