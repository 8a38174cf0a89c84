package io.quotaflow.collector;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.CgroupParent;
import io.quotaflow.cgroups.PlainFileTree;
import io.quotaflow.schemas.Topics;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.MetricsTable;
import io.quotaflow.testharness.Scrape;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/operations.md's collector table is what a running collector serves, on a tree of plain
 * files laid out like a v2 mount (one task), so it runs on any machine.
 */
@WithKafka
class CollectorMetricsDocTest {

  @TempDir
  Path dir;

  @Test
  void theMetricsTableNamesEveryQuotaflowMetricTheCollectorServesAndNoOther(KafkaEnv kafka) throws Exception {
    PlainFileTree tree = PlainFileTree.v2(dir.resolve("cgroup"), "qf", "cpu memory", "cpu memory")
        .v2Task("qf", "job", true, true);
    CgroupConfig cgroups = new CgroupConfig(tree.root, CgroupLayout.V2, CgroupParent.at("/qf"));
    Topics topics = Topics.create(new Topics.Settings(TestTopics.uniquePrefix("collector-metrics"), 3, true),
        kafka.registryClient());
    TestTopics.create(kafka, topics.samples());
    TestTopics.create(kafka, topics.nodes());
    CollectorSettings settings = CollectorSettings.defaults("node-metrics", cgroups)
        .withPeriod(Duration.ofMillis(200)).withOps("127.0.0.1", 0);
    try (Collector collector = Collector.start(settings, kafka.clientConfig(), topics)) {
      KafkaWait.until(Duration.ofSeconds(60), "a published sample", () -> collector.metrics().samplesPublished() > 0);
      Scrape scrape = Scrape.of(collector.opsPort());
      assertThat(scrape.families("quotaflow_")).as("quotaflow_* families and their types")
            .containsExactlyInAnyOrderEntriesOf(MetricsTable.types("collector"));
      assertThat(scrape.families()).containsAllEntriesOf(MetricsTable.types("every process"));
    }
  }
}
