package io.quotaflow.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.CgroupSandbox;
import io.quotaflow.cgroups.Sandboxes;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.testharness.ChildJvm;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.Scrape;
import io.quotaflow.testharness.TestTopics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19 item 1b: {@code quotaflow broker} SIGKILLed under two running {@code quotaflow collector}
 * processes and started again on the same ports and data directory. One collector's buffer holds
 * the whole outage and loses nothing; the other's is far too small, and what it loses is counted
 * exactly by its dropped counter and seen as gaps in {@code seq} adding up to that count (the
 * outage's, and any while the producer reconnects). Every process is
 * its own JVM; the samples come from real, empty v1 groups: what matters is their {@code seq}.
 * The modelled in-process test is collector's {@code CollectorBrokerRestartTest}.
 */
class BrokerKillUnderCollectorLoadTest {

  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final String PERIOD = "100ms";
  /** Far above what an outage of a minute produces (two groups at 10 Hz). */
  private static final int ROOMY_BUFFER = 10_000;
  /** Far below what even a quick restart produces: the producer holds this many more, the rest overflow. */
  private static final int TINY_BUFFER = 8;
  /** Five times what overflows the tiny collector (its buffer and as many in its producer). */
  private static final int ROOMY_HELD_BEFORE_RESTART = 10 * TINY_BUFFER;
  private static final String ROOMY = "node-roomy";
  private static final String TINY = "node-tiny";

  @TempDir Path dataDir;
  @TempDir Path logs;
  CgroupSandbox sandbox;
  CliProcesses processes;
  BrokerProcess broker;

  @BeforeEach
  void setUp() throws Exception {
    sandbox = Sandboxes.openOrSkip(CgroupLayout.V1);
    sandbox.group("alpha");
    sandbox.group("beta");
    processes = new CliProcesses(logs);
  }

  @AfterEach
  void tearDown() throws Exception {
    try {
      if (processes != null) {
        processes.close();
      }
      if (broker != null) {
        broker.close();
      }
    } finally {
      if (sandbox != null) {
        sandbox.close();
      }
    }
  }

  @Test
  void theRoomyBufferLosesNothingAndTheTinyOnesLossIsCountedExactlyAndVisibleAsSeqGaps() throws Exception {
    broker = BrokerProcess.start(dataDir, logs);
    KafkaEnv kafka = broker.kafka();
    String prefix = TestTopics.uniquePrefix("broker-kill");
    Topics topics = Topics.create(new Topics.Settings(prefix, 2, true), kafka.registryClient());
    TestTopics.create(kafka, topics.samples());
    TestTopics.create(kafka, topics.nodes());
    Collector roomy = startCollector(kafka, prefix, ROOMY, ROOMY_BUFFER);
    Collector tiny = startCollector(kafka, prefix, TINY, TINY_BUFFER);
    for (Collector collector : List.of(roomy, tiny)) {
      KafkaWait.until(PATIENCE, collector.node + " to publish 20 samples",
          () -> collector.metric("quotaflow_collector_samples_published_total") >= 20);
    }

    broker.kill();
    long killed = System.nanoTime();
    double roomyPublishedAtKill = roomy.metric("quotaflow_collector_samples_published_total");
    double tinyPublishedAtKill = tiny.metric("quotaflow_collector_samples_published_total");
    // The broker stays away until the tiny buffer overflowed and the roomy one holds several times as much.
    KafkaWait.until(PATIENCE, "the tiny collector to drop samples while the broker is gone",
        () -> tiny.metric("quotaflow_collector_samples_dropped_total") > 0);
    KafkaWait.until(PATIENCE, "the roomy collector to hold " + ROOMY_HELD_BEFORE_RESTART + " samples",
        () -> roomy.held() >= ROOMY_HELD_BEFORE_RESTART);
    double roomyHeldAtRestart = roomy.held();
    assertThat(roomy.metric("quotaflow_collector_samples_published_total"))
        .as("nothing is acknowledged without a broker").isEqualTo(roomyPublishedAtKill);

    long restarting = System.nanoTime();
    broker.restart();
    long outageMs = msSince(killed);
    long restartMs = msSince(restarting);
    // Nothing held any more (it holds something all through an outage): all it took was delivered or dropped.
    KafkaWait.until(PATIENCE, "the roomy collector to deliver everything it held", () -> roomy.held() == 0
        && roomy.metric("quotaflow_collector_samples_published_total") > roomyPublishedAtKill + roomyHeldAtRestart);
    KafkaWait.until(PATIENCE, "the tiny collector to deliver everything it held", () -> tiny.held() == 0
        && tiny.metric("quotaflow_collector_samples_published_total") > tinyPublishedAtKill + TINY_BUFFER);

    Loss roomyLoss = roomy.loss(kafka, topics);
    Loss tinyLoss = tiny.loss(kafka, topics);
    // A sample lost for good would leave a gap not counted as dropped (the seq bound above assumes none).
    assertThat(roomy.metric("quotaflow_collector_publish_errors_total")).as("roomy: samples lost for good").isZero();
    assertThat(tiny.metric("quotaflow_collector_publish_errors_total")).as("tiny: samples lost for good").isZero();
    assertThat(roomyLoss.dropped()).as("dropped by the collector whose buffer held the outage").isZero();
    assertThat(roomyLoss.seqs()).as("no duplicate, no reordering, no gap:%s", roomyLoss.jumps())
        .containsExactlyElementsOf(LongStream.range(0, roomyLoss.seqs().size()).boxed().toList());
    assertThat(tinyLoss.dropped()).as("dropped by the collector whose buffer overflowed").isPositive();
    assertThat(tinyLoss.seqs()).as("still in order, no duplicates").isSorted().doesNotHaveDuplicates();
    assertThat(tinyLoss.seqs().get(0)).isZero();
    // The first gap is the outage's; the buffer may overflow again while the producer reconnects.
    assertThat(tinyLoss.gaps()).as("gaps in seq").isNotEmpty();
    assertThat(tinyLoss.gaps().stream().mapToLong(Long::longValue).sum()).as("samples missing from seq, %s",
        tinyLoss.jumps()).isEqualTo(tinyLoss.dropped());
    assertThat(tiny.metric("quotaflow_collector_samples_dropped_total")).as("the count read with the topic is final")
        .isEqualTo(tinyLoss.dropped());
    System.out.printf(Locale.ROOT, "broker SIGKILL under collector load: outage %d ms (broker restart %d ms);"
        + " roomy (--buffer %d) held %.0f samples when the restart began, dropped 0, %d samples read without a gap;"
        + " tiny (--buffer %d) dropped %d, seq gaps %s (%s)%n", outageMs, restartMs, ROOMY_BUFFER, roomyHeldAtRestart,
        roomyLoss.seqs().size(), TINY_BUFFER, tinyLoss.dropped(), tinyLoss.gaps(), tinyLoss.jumps().trim());
  }

  private Collector startCollector(KafkaEnv kafka, String prefix, String node, int buffer) {
    List<String> args = new ArrayList<>(List.of("collector", "--period", PERIOD, "--buffer", String.valueOf(buffer),
        "--http-host", "127.0.0.1", "--http-port", "0"));
    args.addAll(CliProcesses.connection(kafka, prefix));
    args.addAll(CliProcesses.node(node, sandbox));
    return new Collector(node, processes.start("collector-" + node, args));
  }

  /**
   * What one collector lost: its dropped counter and its samples' {@code seq} in offset order, read
   * up to the last sample it had taken when the counter was read.
   */
  private record Loss(long dropped, List<Long> seqs, List<Long> offsets) {

    /** Where {@code seq} jumps, with the offsets on both sides: for the failure message. */
    String jumps() {
      StringBuilder text = new StringBuilder();
      for (int i = 1; i < seqs.size(); i++) {
        if (seqs.get(i) != seqs.get(i - 1) + 1) {
          text.append(String.format(Locale.ROOT, " seq %d (offset %d) -> seq %d (offset %d);", seqs.get(i - 1),
              offsets.get(i - 1), seqs.get(i), offsets.get(i)));
        }
      }
      return text.isEmpty() ? " none" : text.toString();
    }

    List<Long> gaps() {
      List<Long> gaps = new ArrayList<>();
      for (int i = 1; i < seqs.size(); i++) {
        if (seqs.get(i) != seqs.get(i - 1) + 1) {
          gaps.add(seqs.get(i) - seqs.get(i - 1) - 1);
        }
      }
      return gaps;
    }
  }

  /** A collector process; its /metrics port is read from its output when first asked for. */
  private static final class Collector {
    final String node;
    final ChildJvm child;
    private int opsPort;

    Collector(String node, ChildJvm child) {
      this.node = node;
      this.child = child;
    }

    int opsPort() {
      if (opsPort == 0) {
        opsPort = CliProcesses.opsPort(child);
      }
      return opsPort;
    }

    double metric(String name) {
      return CliProcesses.scrape(child, opsPort()).value(name);
    }

    /** Samples buffered or held unacknowledged by the producer. */
    double held() {
      Scrape scrape = CliProcesses.scrape(child, opsPort());
      return scrape.value("quotaflow_collector_buffered") + scrape.value("quotaflow_collector_in_flight");
    }

    /**
     * Read once it held nothing: every sample taken so far was acknowledged or dropped, so the samples
     * up to {@code published + dropped - 1} are all in the topic but the dropped ones.
     */
    Loss loss(KafkaEnv kafka, Topics topics) {
      Scrape scrape = CliProcesses.scrape(child, opsPort());
      long dropped = (long) scrape.value("quotaflow_collector_samples_dropped_total");
      long lastSeq = (long) scrape.value("quotaflow_collector_samples_published_total") + dropped - 1;
      List<ConsumerRecord<String, CgroupSample>> records = KafkaWait.recordsUntil(kafka, topics.samples().name(),
          topics.samples().keySerde().deserializer(), topics.samples().valueSerde().deserializer(),
          seen -> seen.stream().anyMatch(r -> r.value().getNode().equals(node) && r.value().getSeq() >= lastSeq),
          node + "'s sample seq " + lastSeq, PATIENCE);
      List<ConsumerRecord<String, CgroupSample>> own = records.stream()
          .filter(r -> r.value().getNode().equals(node) && r.value().getSeq() <= lastSeq)
          .sorted(Comparator.comparingLong(ConsumerRecord::offset)).toList();
      return new Loss(dropped, own.stream().map(r -> r.value().getSeq()).toList(),
          own.stream().map(ConsumerRecord::offset).toList());
    }
  }

  private static long msSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }
}
