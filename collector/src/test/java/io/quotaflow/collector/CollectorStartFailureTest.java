package io.quotaflow.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.CgroupParent;
import io.quotaflow.embedded.Ports;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.registry.RegistryClientConfig;
import io.quotaflow.schemas.registry.SchemaRegistryClients;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.junit.jupiter.api.Test;

/** What an operator sees when something outside the collector is wrong: one line, no trace. */
@WithKafka
class CollectorStartFailureTest {

  /** A parent that is never created: opening the cgroups reads the tree and writes nothing. */
  static CgroupConfig untouchedCgroups() {
    assumeTrue(Files.isDirectory(CgroupConfig.DEFAULT_ROOT), "no " + CgroupConfig.DEFAULT_ROOT + " on this machine");
    return new CgroupConfig(CgroupConfig.DEFAULT_ROOT, CgroupLayout.AUTO, CgroupParent.at("/quotaflow-test-never-created"));
  }

  static Topics topics(KafkaEnv kafka) {
    Topics topics = Topics.create(new Topics.Settings(TestTopics.uniquePrefix("failure"), 1, true), kafka.registryClient());
    TestTopics.create(kafka, topics.samples());
    TestTopics.create(kafka, topics.nodes());
    return topics;
  }

  static CollectorSettings settings(CgroupConfig cgroups) {
    return CollectorSettings.defaults("node-f", cgroups).withOps("127.0.0.1", 0);
  }

  @Test
  void aMissingCgroupRootIsNamed(KafkaEnv kafka) {
    CgroupConfig missing = new CgroupConfig(Path.of("/no/such/cgroup/root"), CgroupLayout.AUTO, CgroupParent.at("/qf"));
    assertThatThrownBy(() -> Collector.start(settings(missing), kafka.clientConfig(), topics(kafka)))
        .isInstanceOf(CollectorException.class)
        .hasMessage("cgroups: cgroup root /no/such/cgroup/root does not exist or is not a directory");
  }

  @Test
  void anUnreachableBrokerIsNamed(KafkaEnv kafka) {
    String nobody = "localhost:" + Ports.free("localhost");
    assertThatThrownBy(() -> Collector.start(settings(untouchedCgroups()),
        Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, nobody), topics(kafka)))
        .isInstanceOf(CollectorException.class)
        .hasMessageStartingWith("cannot reach Kafka at " + nobody + ": ")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void aMissingTopicIsNamedNotCreated(KafkaEnv kafka) throws Exception {
    Topics topics = Topics.create(new Topics.Settings(TestTopics.uniquePrefix("failure"), 1, true), kafka.registryClient());
    TestTopics.create(kafka, topics.nodes());
    assertThatThrownBy(() -> Collector.start(settings(untouchedCgroups()), kafka.clientConfig(), topics))
        .isInstanceOf(CollectorException.class)
        .hasMessage("no topic " + topics.samples().name() + " on " + kafka.bootstrapServers()
            + "; is --topic-prefix right? (topics are created by quotaflow streams)");
    try (var admin = kafka.admin()) {
      assertThat(admin.listTopics().names().get()).doesNotContain(topics.samples().name());
    }
  }

  @Test
  void anUnreachableRegistryIsNamed(KafkaEnv kafka) {
    String nobody = "http://127.0.0.1:" + Ports.free("127.0.0.1");
    Topics topics = Topics.create(new Topics.Settings(TestTopics.uniquePrefix("failure"), 1, true),
        SchemaRegistryClients.create(Map.of(RegistryClientConfig.URL, nobody, RegistryClientConfig.MAX_RETRIES, "1")));
    TestTopics.create(kafka, topics.samples());
    TestTopics.create(kafka, topics.nodes());
    assertThatThrownBy(() -> Collector.start(settings(untouchedCgroups()), kafka.clientConfig(), topics))
        .isInstanceOf(CollectorException.class)
        .hasMessageStartingWith("cannot reach the schema registry: ")
        .hasMessageContaining(nobody)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void aTakenOpsPortIsNamed(KafkaEnv kafka) throws Exception {
    try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      CollectorSettings settings = settings(untouchedCgroups()).withOps("127.0.0.1", taken.getLocalPort());
      assertThatThrownBy(() -> Collector.start(settings, kafka.clientConfig(), topics(kafka)))
          .isInstanceOf(CollectorException.class)
          .hasMessageStartingWith("cannot serve /metrics and /health on 127.0.0.1:" + taken.getLocalPort());
    }
  }
}
