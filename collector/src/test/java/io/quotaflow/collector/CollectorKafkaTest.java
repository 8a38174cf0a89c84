package io.quotaflow.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quotaflow.cgroups.Sandboxes;
import io.quotaflow.cgroups.CgroupSandbox;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.schemas.NodePartitioning;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The collector end to end: real cgroups with our own busy and idle processes, sampled into the
 * embedded broker, read back through the registry. Skipped where cgroups are not writable.
 */
@WithKafka
class CollectorKafkaTest {

  private static final Logger LOG = LoggerFactory.getLogger(CollectorKafkaTest.class);
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final Duration PERIOD = Duration.ofMillis(200);
  private static final int PARTITIONS = 3;

  CgroupSandbox sandbox;

  @AfterEach
  void cleanUp() throws Exception {
    if (sandbox != null) {
      sandbox.close();
    }
  }

  static Topics topics(KafkaEnv kafka) {
    Topics topics = Topics.create(new Topics.Settings(TestTopics.uniquePrefix("collector"), PARTITIONS, true), kafka.registryClient());
    // The streams app creates the topics; the collector only checks they are there.
    TestTopics.create(kafka, topics.samples());
    TestTopics.create(kafka, topics.nodes());
    return topics;
  }

  CollectorSettings settings(String node) {
    return CollectorSettings.defaults(node, sandbox.config()).withPeriod(PERIOD).withOps("127.0.0.1", 0);
  }

  static List<CgroupSample> samplesUntil(KafkaEnv kafka, Topic<String, CgroupSample> topic,
      Predicate<List<CgroupSample>> done, String expectation) {
    return KafkaWait.recordsUntil(kafka, topic.name(), topic.keySerde().deserializer(), topic.valueSerde().deserializer(),
            seen -> done.test(values(seen)), expectation, PATIENCE)
        .stream().map(ConsumerRecord::value).toList();
  }

  static List<CgroupSample> values(List<ConsumerRecord<String, CgroupSample>> records) {
    return records.stream().map(ConsumerRecord::value).toList();
  }

  static List<CgroupSample> of(List<CgroupSample> samples, String task) {
    return samples.stream().filter(s -> s.getTask().equals(task)).sorted(Comparator.comparing(CgroupSample::getSeq)).toList();
  }

  static long spanMs(List<CgroupSample> samples) {
    return samples.size() < 2 ? 0 : samples.get(samples.size() - 1).getTsMs() - samples.get(0).getTsMs();
  }

  @ParameterizedTest
  @EnumSource(value = CgroupLayout.class, names = {"V1", "V2"})
  void usageRatesAreWithinTenPercentOfWhatTheProcessesBurn(CgroupLayout layout, KafkaEnv kafka) throws Exception {
    sandbox = Sandboxes.openOrSkip(layout);
    Process busy = sandbox.busy(sandbox.group("busy"));
    Process idle = sandbox.idle(sandbox.group("idle"));
    Topics topics = topics(kafka);
    List<CgroupSample> samples;
    try (ProcessCpuRecorder burnt = new ProcessCpuRecorder(List.of(busy.pid(), idle.pid()))) {
      try (Collector collector = Collector.start(settings("node-rates"), kafka.clientConfig(), topics)) {
        samples = samplesUntil(kafka, topics.samples(), seen -> spanMs(of(seen, "busy")) >= 3_000
            && spanMs(of(seen, "idle")) >= 3_000, "3 s of samples of both groups");
      }
      for (String task : List.of("busy", "idle")) {
        List<CgroupSample> series = of(samples, task);
        CgroupSample first = series.get(0);
        CgroupSample last = series.get(series.size() - 1);
        double seconds = (last.getTsMs() - first.getTsMs()) / 1000.0;
        double reported = (last.getCpuUsageUsec() - first.getCpuUsageUsec()) / 1e6 / seconds;
        double actual = burnt.cpuSecondsBetween(task.equals("busy") ? busy.pid() : idle.pid(), first.getTsMs(),
            last.getTsMs()) / seconds;
        LOG.info("{} {}: collector says {} cores over {} s, /proc/pid/schedstat says {}", layout, task, reported, seconds, actual);
        if (task.equals("busy")) {
          assertThat(actual).as("the busy loop really burns CPU (it shares two cores with the build)").isGreaterThan(0.05);
          assertThat(reported).as("busy rate, cores").isCloseTo(actual, within(0.1 * actual));
        } else {
          assertThat(actual).as("the idle process really idles").isLessThan(0.01);
          assertThat(reported).as("idle rate, cores").isCloseTo(actual, within(0.01));
        }
      }
    }
  }

  @Test
  void samplesAreKeyedAndPartitionedByNodeWithConsecutiveSeqAndAGoneSampleEndsARemovedGroup(KafkaEnv kafka)
      throws Exception {
    sandbox = Sandboxes.openOrSkip(CgroupLayout.AUTO);
    TaskId doomed = sandbox.group("doomed");
    sandbox.group("stays");
    Process process = sandbox.idle(doomed);
    Topics topics = topics(kafka);
    String node = "node-gone";
    List<ConsumerRecord<String, CgroupSample>> records;
    try (Collector collector = Collector.start(settings(node), kafka.clientConfig(), topics)) {
      samplesUntil(kafka, topics.samples(), seen -> of(seen, "doomed").size() >= 2 && of(seen, "stays").size() >= 2,
          "two samples of each group");
      CgroupSandbox.kill(process);
      sandbox.remove(doomed);
      records = KafkaWait.recordsUntil(kafka, topics.samples().name(), topics.samples().keySerde().deserializer(),
          topics.samples().valueSerde().deserializer(), seen -> {
            List<CgroupSample> values = values(seen);
            return values.stream().anyMatch(s -> s.getState() == SampleState.GONE)
                && of(values, "stays").size() >= of(values, "doomed").size() + 2;
          }, "a GONE sample and two rounds after it", PATIENCE);
    }
    List<CgroupSample> doomedSamples = of(values(records), "doomed");
    assertThat(doomedSamples).filteredOn(s -> s.getState() == SampleState.GONE).hasSize(1);
    assertThat(doomedSamples.get(doomedSamples.size() - 1).getState()).as("the last sample of the group")
        .isEqualTo(SampleState.GONE);
    int partition = NodePartitioning.partitionOfNode(node, PARTITIONS);
    assertThat(records).allSatisfy(r -> {
      assertThat(r.partition()).isEqualTo(partition);
      assertThat(r.key()).isEqualTo(node + "/" + r.value().getTask());
      assertThat(r.value().getNode()).isEqualTo(node);
    });
    // One partition, in offset order: every seq from 0, once, in order.
    List<Long> seqs = records.stream().sorted(Comparator.comparingLong(ConsumerRecord::offset))
        .map(r -> r.value().getSeq()).toList();
    assertThat(seqs).containsExactlyElementsOf(java.util.stream.LongStream.range(0, seqs.size()).boxed().toList());
  }

  @Test
  void announcesTheNodeAndServesMetricsAndHealth(KafkaEnv kafka) throws Exception {
    sandbox = Sandboxes.openOrSkip(CgroupLayout.AUTO);
    sandbox.group("one");
    Topics topics = topics(kafka);
    HttpClient http = HttpClient.newHttpClient();
    try (Collector collector = Collector.start(settings("node-ops"), kafka.clientConfig(), topics)) {
      List<ConsumerRecord<String, NodeStatus>> statuses = KafkaWait.records(kafka, topics.nodes(), 1, PATIENCE);
      NodeStatus status = statuses.get(0).value();
      NodeFacts facts = NodeFacts.read();
      assertThat(statuses.get(0).key()).isEqualTo("node-ops");
      assertThat(status.getMemoryTotalBytes()).isEqualTo(facts.memoryTotalBytes());
      assertThat(status.getCpus()).isEqualTo(facts.cpus());
      assertThat(status.getThreadsPerCore()).isEqualTo(facts.threadsPerCore());
      assertThat(status.getCgroupVersion()).isEqualTo(sandbox.cgroups().version() == io.quotaflow.cgroups.CgroupVersion.V1 ? 1 : 2);

      KafkaWait.until(PATIENCE, "a published sample", () -> collector.metrics().samplesPublished() > 0);
      URI base = URI.create("http://127.0.0.1:" + collector.opsPort());
      HttpResponse<String> health = http.send(HttpRequest.newBuilder(base.resolve("/health")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.body()).contains("\"live\":true", "\"ready\":true").doesNotContain("\"staleness_ms\":-1");
      String metrics = http.send(HttpRequest.newBuilder(base.resolve("/metrics")).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      assertThat(metrics).contains("quotaflow_collector_samples_published_total{", "quotaflow_collector_buffered{",
          "quotaflow_collector_samples_dropped_total{", "quotaflow_collector_read_errors_total{",
          "quotaflow_collector_sample_duration_seconds_count{", "quotaflow_collector_groups{", "process_cpu_usage{");
    }
  }
}
