package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.enforcer.EnforcerCommand;
import io.quotaflow.schemas.NodePartitioner;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupCpuSettings;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code quotaflow enforcer} as a user runs it: flags to cgroups, topics and the broker, until
 * stopped. The cgroup behaviour itself is tested on real cgroups in the enforcer module; here the
 * cgroups are a directory tree laid out like a v1 mount, so the wiring is tested without root.
 */
@WithKafka
class EnforcerCommandTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @TempDir Path root;
  @TempDir Path stateDir;

  @Test
  void appliesTheNodesDecisionsUntilStopped(KafkaEnv kafka) throws Exception {
    for (String controller : List.of("cpu", "cpuacct", "memory", "freezer")) {
      write(controller + "/cgroup.procs", "");
      group(controller, "qf");
      group(controller, "qf/job-1");
    }
    String prefix = TestTopics.uniquePrefix("enforcer-cli");
    Topics topics = Topics.create(new Topics.Settings(prefix, 3, true), kafka.registryClient());
    TestTopics.createAll(kafka, topics);

    EnforcerCommand command = new EnforcerCommand();
    StringWriter out = new StringWriter();
    CommandLine line = new CommandLine(command).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(out, true));
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> exit = thread.submit(() -> line.execute("--node", "node-a", "--cgroup-root", root.toString(),
          "--layout", "v1", "--parent", "/qf", "--state-file", stateDir.resolve("node-a.json").toString(),
          "--http-port", "0", "--http-host", "127.0.0.1", "--bootstrap", kafka.bootstrapServers(),
          "--registry", kafka.registryUrl(), "--topic-prefix", prefix));
      KafkaWait.until(TIMEOUT, "the enforcer to start (output: " + out + ")", () -> out.toString().contains("/metrics"));

      Map<String, Object> config = new HashMap<>(kafka.clientConfig());
      config.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, NodePartitioner.class.getName());
      try (KafkaProducer<String, CpuDecision> producer = new KafkaProducer<>(config,
          topics.cpuDecisions().keySerde().serializer(), topics.cpuDecisions().valueSerde().serializer())) {
        producer.send(new ProducerRecord<>(topics.cpuDecisions().name(), "node-a/job-1", decision())).get();
      }
      List<ConsumerRecord<String, EnforcementResult>> results = KafkaWait.records(kafka, topics.enforcementResults(), 1, TIMEOUT);
      assertThat(results.get(0).key()).isEqualTo("node-a/job-1");
      assertThat(results.get(0).value().getStatus()).isEqualTo(EnforcementStatus.APPLIED);
      assertThat(Files.readString(root.resolve("cpu/qf/job-1/cpu.shares"))).isEqualTo("512");
      assertThat(out.toString()).contains("quotaflow enforcer: node node-a on cgroup v1");

      command.requestStop();
      assertThat(exit.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isZero();
      assertThat(out.toString()).contains("quotaflow enforcer: stopped.");
      assertThat(Files.readString(stateDir.resolve("node-a.json"))).contains("\"job-1\"", "\"shares\" : 1024");
    } finally {
      thread.shutdownNow();
    }
  }

  @Test
  void anUnsafeNodeIsOneLineAndExitCode2() {
    StringWriter err = new StringWriter();
    CommandLine line = new CommandLine(new QuotaflowCli()).setErr(new PrintWriter(err, true));
    assertThat(QuotaflowCli.execute(line, "enforcer", "--node", "../etc")).isEqualTo(2);
    assertThat(err.toString()).startsWith("quotaflow enforcer: --node").doesNotContain("\tat ");
  }

  private static CpuDecision decision() {
    return CpuDecision.newBuilder().setNode("node-a").setTask("job-1").setTsMs(System.currentTimeMillis())
        .setHardLimitCpu(1).setSoftLimitCpu(0.5).setEffectiveLimitCpu(0.5).setReason("DECREASE").setApply(true)
        .setCgroup(new CgroupCpuSettings(512L, 50L, -1L, 100_000L)).build();
  }

  /** A group directory with the files the cgroups module reads, at the kernel's defaults. */
  private void group(String controller, String path) throws IOException {
    String dir = controller + "/" + path + "/";
    write(dir + "cgroup.procs", "");
    switch (controller) {
      case "cpu" -> {
        write(dir + "cpu.shares", "1024\n");
        write(dir + "cpu.cfs_period_us", "100000\n");
        write(dir + "cpu.cfs_quota_us", "-1\n");
      }
      case "cpuacct" -> write(dir + "cpuacct.usage", "0\n");
      case "memory" -> write(dir + "memory.usage_in_bytes", "0\n");
      case "freezer" -> write(dir + "freezer.state", "THAWED\n");
      default -> throw new IllegalArgumentException(controller);
    }
  }

  private void write(String relative, String content) throws IOException {
    Path path = root.resolve(relative);
    Files.createDirectories(path.getParent());
    Files.writeString(path, content);
  }
}
