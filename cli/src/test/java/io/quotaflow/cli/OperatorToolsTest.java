package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.NodePartitioning;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.Enforcement;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The operator tools against a real broker and registry: validate, then publish; refuse and write nothing. */
@WithKafka
class OperatorToolsTest {

  private static int cli(KafkaEnv kafka, String prefix, String... args) {
    return new OperatorTool(kafka, prefix, 3).exitCode(List.of(args));
  }

  private static <V> Map<String, V> latest(KafkaEnv kafka, io.quotaflow.schemas.Topic<String, V> topic) {
    return new ConfigTopics(Map.of("bootstrap.servers", kafka.bootstrapServers())).latest(topic, null);
  }

  @Test
  void specSetPublishesToTheNodesPartitionAndPatchesTheCurrentSpec(KafkaEnv kafka) {
    String prefix = TestTopics.uniquePrefix("spec");
    Topics topics = Topics.create(new Topics.Settings(prefix, 3, true), kafka.registryClient());
    new OperatorTool(kafka, prefix, 3).withTopics();

    assertThat(cli(kafka, prefix, "spec", "set", "node-3/t1", "ncpus=2", "pool=research")).isZero();
    assertThat(cli(kafka, prefix, "spec", "set", "node-3/t1", "job_cpu_monitor.enable_cpu_reclaim=true", "cpu_limit=3")).isZero();

    Map<String, TaskSpec> specs = latest(kafka, topics.taskSpecs());
    TaskSpec spec = specs.get("node-3/t1");
    assertThat(spec.getNcpus()).isEqualTo(2.0);
    assertThat(spec.getPool()).isEqualTo("research");
    assertThat(spec.getCpuLimit()).isEqualTo(3.0);
    assertThat(spec.getJobCpuMonitor().getEnableCpuReclaim()).isTrue();
    Map<String, TaskSpec> nodePartition = new ConfigTopics(Map.of("bootstrap.servers", kafka.bootstrapServers()))
        .latest(topics.taskSpecs(), "node-3");
    assertThat(nodePartition).containsKey("node-3/t1");
    assertThat(NodePartitioning.partitionOfNode("node-3", 3)).isBetween(0, 2);

    assertThat(cli(kafka, prefix, "spec", "delete", "node-3/t1")).isZero();
    assertThat(latest(kafka, topics.taskSpecs())).doesNotContainKey("node-3/t1");
  }

  @Test
  void invalidInputIsRefusedAndNothingIsWritten(KafkaEnv kafka) {
    String prefix = TestTopics.uniquePrefix("refuse");
    Topics topics = Topics.create(new Topics.Settings(prefix, 3, true), kafka.registryClient());
    new OperatorTool(kafka, prefix, 3).withTopics();
    assertThat(cli(kafka, prefix, "spec", "set", "n1/ok", "ncpus=1")).isZero();

    assertThat(cli(kafka, prefix, "spec", "set", "n1/bad", "ncpus=-1")).isEqualTo(2);
    assertThat(cli(kafka, prefix, "spec", "set", "n1/../x", "ncpus=1")).isEqualTo(2);
    assertThat(cli(kafka, prefix, "spec", "set", "n1/t", "colour=blue", "ncpus=1")).isEqualTo(2);
    assertThat(cli(kafka, prefix, "cluster", "set", "cfs_period_us=5")).isEqualTo(2);
    assertThat(cli(kafka, prefix, "pool", "set", "p", "guarantee_type=RELAXED", "burst_guarantee_cpu=5")).isEqualTo(2);
    assertThat(cli(kafka, prefix, "pool", "set", "p", "parent=root")).isEqualTo(2);
    // the engine's own rule: a pool of weight 0 would fail inside the pool update
    assertThat(cli(kafka, prefix, "pool", "set", "p", "weight=0")).isEqualTo(2);

    assertThat(latest(kafka, topics.taskSpecs())).containsOnlyKeys("n1/ok");
    assertThat(latest(kafka, topics.clusterConfig())).isEmpty();
    assertThat(latest(kafka, topics.poolConfigs())).isEmpty();
  }

  @Test
  void clusterSetChangesOnlyTheFieldsGiven(KafkaEnv kafka) {
    String prefix = TestTopics.uniquePrefix("cluster");
    Topics topics = Topics.create(new Topics.Settings(prefix, 3, true), kafka.registryClient());
    new OperatorTool(kafka, prefix, 3).withTopics();
    assertThat(cli(kafka, prefix, "cluster", "set", "enforcement=DRY_RUN")).isZero();
    assertThat(cli(kafka, prefix, "cluster", "set", "cfs_period_us=50000")).isZero();
    ClusterConfig config = latest(kafka, topics.clusterConfig()).get("main");
    assertThat(config.getEnforcement()).isEqualTo(Enforcement.DRY_RUN);
    assertThat(config.getCfsPeriodUs()).isEqualTo(50_000);
    assertThat(config.getPeakThresholdRatio()).isEqualTo(1.1);
    assertThat(cli(kafka, prefix, "cluster", "show")).isZero();
  }

  @Test
  void anUnreachableBrokerIsOneClearLineNotAStackTrace() {
    java.io.StringWriter err = new java.io.StringWriter();
    picocli.CommandLine line = new picocli.CommandLine(new QuotaflowCli());
    line.setErr(new java.io.PrintWriter(err, true));
    int code = QuotaflowCli.execute(line, "cluster", "show", "--bootstrap", "127.0.0.1:1", "--registry", "http://127.0.0.1:1");
    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).startsWith("quotaflow cluster show: cannot reach Kafka at 127.0.0.1:1").doesNotContain("\tat ");
  }
}
