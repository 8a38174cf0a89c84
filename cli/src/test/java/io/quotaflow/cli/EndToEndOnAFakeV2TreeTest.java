package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.CgroupParent;
import io.quotaflow.cgroups.PlainFileTree;
import io.quotaflow.cli.demo.NodeStack;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.schemas.Topics;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The v2 CPU files this machine's kernel does not offer (its v2 tree has no cpu controller): the
 * same pipeline over a tree laid out like a v2 mount with the cpu controller enabled, the test
 * playing the kernel's part of advancing a busy task's {@code cpu.stat}. Plain files do not
 * normalise or refuse values, so this shows what the enforcer writes, not what a kernel keeps.
 */
@WithKafka
class EndToEndOnAFakeV2TreeTest {

  private static final String NODE = "fake-v2-node";
  private static final Duration SAMPLE_PERIOD = Duration.ofMillis(200);
  private static final Duration PATIENCE = Duration.ofSeconds(60);

  @TempDir
  Path dir;

  @Test
  void anIdleTasksCpuWeightStepsDownWhileABusyOnesStaysAndCpuMaxKeepsThePeriod(KafkaEnv kafka) throws Exception {
    PlainFileTree tree = PlainFileTree.v2(dir.resolve("cgroup"), "qf", "cpu", "cpu")
        .v2Task("qf", "busy", true, false)
        .v2Task("qf", "idle", true, false);
    CgroupConfig config = new CgroupConfig(tree.root, CgroupLayout.V2, CgroupParent.at("/qf"));
    String prefix = TestTopics.uniquePrefix("fake-v2");
    Topics.Settings topics = new Topics.Settings(prefix, 3, true);
    OperatorTool operator = new OperatorTool(kafka, prefix, 3).withTopics();
    for (String task : List.of("busy", "idle")) {
      List<String> args = new ArrayList<>(List.of("spec", "set", NODE + "/" + task));
      args.addAll(EndToEndOnRealCgroupsTest.QUICK_RECLAIM);
      operator.run(args);
    }
    operator.run("cluster", "set", "enforcement=ON");

    ScheduledExecutorService kernel = Executors.newSingleThreadScheduledExecutor();
    AtomicLong busyUsageUsec = new AtomicLong();
    // One full CPU for the busy task: its usage_usec grows by the wall-clock time that passed.
    kernel.scheduleAtFixedRate(() -> tree.file("unified/qf/busy/cpu.stat",
        "usage_usec " + busyUsageUsec.addAndGet(50_000) + "\nuser_usec 0\nsystem_usec 0\n"
            + "nr_periods 0\nnr_throttled 0\nthrottled_usec 0\n"), 0, 50, TimeUnit.MILLISECONDS);
    try (NodeStack stack = NodeStack.start(new NodeStack.Settings(kafka.clientConfig(), topics, NODE, config,
        dir.resolve("stack"), SAMPLE_PERIOD, Duration.ofMillis(100)), kafka.registryClient(),
        OpsServer.newRegistry("fake-v2"))) {
      // weight = round(shares × 100 / 1024): 1000 shares (1 CPU) is 98; the floor of 100 shares is 10.
      Readings idleWeights = new Readings();
      Readings busyWeights = new Readings();
      KafkaWait.until(PATIENCE, "the idle task's cpu.weight to reach its floor of 10", () -> {
        busyWeights.add(weight(tree, "busy"));
        return idleWeights.add(weight(tree, "idle")) == 10;
      });
      // After the initial 100: 98, 68, 48, 33, 23, 16, 11, 10; polling may miss a briefly held step,
      // never see one off the ladder or out of order.
      List<Integer> ladder = Readings.sharesLadder(1.0, 0.7, 0.1).stream().map(shares -> (shares * 100 + 512) / 1024).toList();
      assertThat(idleWeights.stepsAfter(100)).isSubsetOf(ladder).isSortedAccordingTo((a, b) -> Integer.compare(b, a))
          .endsWith(10).hasSizeGreaterThanOrEqualTo(5);
      assertThat(busyWeights.stepsAfter(100)).containsExactly(98);
      assertThat(tree.readValue("unified/qf/idle/cpu.max")).isEqualTo("max 100000");
      assertThat(tree.readValue("unified/qf/busy/cpu.max")).isEqualTo("max 100000");
    } finally {
      kernel.shutdownNow();
    }
  }

  private static int weight(PlainFileTree tree, String task) {
    return Integer.parseInt(tree.readValue("unified/qf/" + task + "/cpu.weight"));
  }
}
