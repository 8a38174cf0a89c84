package io.quotaflow.enforcer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.CgroupParent;
import io.quotaflow.cgroups.PlainFileTree;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.MetricsTable;
import io.quotaflow.testharness.Scrape;
import io.quotaflow.testharness.WithKafka;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/operations.md's enforcer table is what a running enforcer serves: started as
 * {@code quotaflow enforcer} starts it (its registry on the ops server), on a tree of plain files
 * laid out like a v2 mount, so it runs on any machine, with one task's decision read.
 */
@WithKafka
class EnforcerMetricsDocTest {

  @TempDir
  Path dir;

  @Test
  void theMetricsTableNamesEveryQuotaflowMetricTheEnforcerServesAndNoOther(KafkaEnv kafka) throws Exception {
    PlainFileTree tree = PlainFileTree.v2(dir.resolve("cgroup"), "qf", "cpu", "cpu");
    CgroupConfig cgroups = new CgroupConfig(tree.root, CgroupLayout.V2, CgroupParent.at("/qf"));
    PrometheusMeterRegistry meters = OpsServer.newRegistry("enforcer");
    try (EnforcerFixture fixture = new EnforcerFixture(kafka)) {
      Enforcer enforcer = fixture.start(cgroups, dir.resolve("enforcer.state"), false, Duration.ofSeconds(5), meters);
      try (OpsServer ops = OpsServer.start("127.0.0.1", 0, meters, enforcer::health)) {
        // The per-task families have a series only for a task with a decision: one task makes them appear.
        fixture.cpu("doc-task", false, 500, -1);
        KafkaWait.until(EnforcerFixture.PATIENCE, "the decision's limits on /metrics",
            () -> scrape(ops).families("quotaflow_").containsKey("quotaflow_enforcer_task_limit_cpu"));
        Scrape scrape = Scrape.of(ops.port());
        assertThat(scrape.families("quotaflow_")).as("quotaflow_* families and their types")
            .containsExactlyInAnyOrderEntriesOf(MetricsTable.types("enforcer"));
        assertThat(scrape.families()).containsAllEntriesOf(MetricsTable.types("every process"));
      }
    }
  }

  private static Scrape scrape(OpsServer ops) {
    try {
      return Scrape.of(ops.port());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
