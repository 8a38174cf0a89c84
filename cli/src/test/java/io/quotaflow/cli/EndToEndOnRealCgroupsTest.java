package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.CgroupSandbox;
import io.quotaflow.cgroups.Sandboxes;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.cli.demo.NodeStack;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole pipeline on real cgroups: real processes in real groups, the collector sampling them,
 * the streams app deciding, the enforcer writing, and the test reading the kernel's own files.
 * Specs and the cluster config go in through the operator tools, as an operator would publish them.
 */
@WithKafka
class EndToEndOnRealCgroupsTest {

  private static final String NODE = "e2e-node";
  private static final int PARTITIONS = 3;
  private static final Duration SAMPLE_PERIOD = Duration.ofMillis(200);
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  /**
   * A monitor that reacts within seconds: a vote every sample, a quick average, steps of ×0.7 down
   * to a floor of 0.1 CPU. The lower bound is low enough that a busy process getting only a tenth
   * of a core (two cores shared with a build and other tests) still votes to keep its limit.
   */
  static final List<String> QUICK_RECLAIM = List.of(
      "ncpus=1", "cpu_limit=1",
      "job_cpu_monitor.enable_cpu_reclaim=true",
      "job_cpu_monitor.check_period_ms=200",
      "job_cpu_monitor.smoothing_factor=0.5",
      "job_cpu_monitor.relative_lower_bound=0.1",
      "job_cpu_monitor.decrease_coefficient=0.7",
      "job_cpu_monitor.min_cpu_limit=0.1");

  private KafkaEnv kafka;
  private String prefix;
  private Topics topics;
  private CgroupSandbox sandbox;
  private NodeStack stack;
  @TempDir
  Path workDir;

  @BeforeEach
  void setUp(KafkaEnv env) {
    kafka = env;
    prefix = TestTopics.uniquePrefix("e2e");
    topics = Topics.create(new Topics.Settings(prefix, PARTITIONS, true), kafka.registryClient());
  }

  @AfterEach
  void tearDown() throws Exception {
    try {
      if (stack != null) {
        stack.close();
      }
    } finally {
      if (sandbox != null) {
        sandbox.close();
      }
    }
  }

  @Test
  void anIdleProcessLosesSharesStepByStepWhileABusyOneKeepsItsOwn() throws Exception {
    sandbox = Sandboxes.openV1WithFreezerOrSkip();
    BusyAndIdle tasks = busyAndIdleWithQuickReclaim();
    TaskId busy = tasks.busy();
    TaskId idle = tasks.idle();
    start(CgroupLayout.V1);
    Readings idleShares = new Readings();
    Readings busyShares = new Readings();
    KafkaWait.until(PATIENCE, "the idle task's cpu.shares to reach its floor of 100", () -> {
      busyShares.add(shares(busy));
      return idleShares.add(shares(idle)) == 100;
    });

    // After the kernel's 1024: 1000, 700, 489, 342, 240, 168, 117, 100. Polling may miss a step
    // held only briefly (the first decisions come in a burst while the app catches up on samples
    // sent during its start), never see one off the ladder or out of order.
    List<Integer> ladder = Readings.sharesLadder(1.0, 0.7, 0.1);
    assertThat(idleShares.stepsAfter(1024)).isSubsetOf(ladder).isSortedAccordingTo((a, b) -> Integer.compare(b, a))
        .endsWith(100).hasSizeGreaterThanOrEqualTo(5);
    assertThat(busyShares.stepsAfter(1024)).containsExactly(1000);
  }

  @Test
  void anIdleProcessThatTurnsBusyClimbsBackToItsHardLimit() throws Exception {
    sandbox = Sandboxes.openV1WithFreezerOrSkip();
    TaskId task = sandbox.group("wakes");
    Path go = workDir.resolve("go");
    // Sleeps until the file appears, then burns a CPU: the same process, first idle then busy.
    sandbox.spawnShell(task, "while [ ! -e " + go + " ]; do sleep 0.1; done; while :; do :; done");
    cluster("enforcement=ON");
    spec(task, QUICK_RECLAIM);
    start(CgroupLayout.V1);

    KafkaWait.until(PATIENCE, "the idle task's cpu.shares to come down to 342 or less", () -> shares(task) <= 342);
    int low = shares(task);
    Files.createFile(go);

    Readings climb = new Readings();
    KafkaWait.until(PATIENCE, "the busy task's cpu.shares to climb back to 1000", () -> climb.add(shares(task)) == 1000);
    assertThat(climb.steps().get(0)).isLessThanOrEqualTo(low);
    assertThat(climb.steps()).as("steps of ×1.45 on the way up").isSorted().hasSizeGreaterThanOrEqualTo(3);
  }

  @Test
  void aZeroCpuProcessGetsTwoSharesAndTheZeroCpuQuota() throws Exception {
    sandbox = Sandboxes.openV1WithFreezerOrSkip();
    TaskId zero = sandbox.group("zero");
    sandbox.busy(zero);
    cluster("enforcement=ON");
    spec(zero, List.of("ncpus=0"));
    start(CgroupLayout.V1);

    // ceil(100000 µs × zero_cpus_quota_fraction 0.2 × fudge 1.03)
    KafkaWait.until(PATIENCE, "cpu.shares 2 and cpu.cfs_quota_us 20600",
        () -> shares(zero) == 2 && read(zero, "cpu.cfs_quota_us").equals("20600"));
    assertThat(read(zero, "cpu.cfs_period_us")).isEqualTo("100000");
    // The enforcer publishes its result after writing the files: it may not be on the topic yet.
    KafkaWait.until(PATIENCE, "the enforcer's result for the zero-CPU task, reading 2 shares back", () -> {
      EnforcementResult result = latest(topics.enforcementResults()).get(key(zero));
      return result != null && Long.valueOf(2L).equals(result.getReadShares());
    });
    Map<String, EnforcementResult> results = latest(topics.enforcementResults());
    assertThat(results.get(key(zero)).getStatus()).isIn(EnforcementStatus.APPLIED, EnforcementStatus.UNCHANGED);
    assertThat(results.get(key(zero)).getReadShares()).isEqualTo(2L);
  }

  @Test
  void withPerPeriodQuotaTheQuotaFollowsTheHardLimit() throws Exception {
    sandbox = Sandboxes.openV1WithFreezerOrSkip();
    TaskId task = sandbox.group("capped");
    sandbox.busy(task);
    cluster("enforcement=ON", "enforce_per_period_quota=true");
    spec(task, List.of("ncpus=1", "cpu_limit=0.5"));
    start(CgroupLayout.V1);

    // ceil(100000 × 0.5 × 1.03), then ceil(100000 × 0.25 × 1.03): the kernel now throttles the process there.
    KafkaWait.until(PATIENCE, "cpu.cfs_quota_us 51500", () -> read(task, "cpu.cfs_quota_us").equals("51500"));
    spec(task, List.of("cpu_limit=0.25"));
    KafkaWait.until(PATIENCE, "cpu.cfs_quota_us 25750", () -> read(task, "cpu.cfs_quota_us").equals("25750"));
    KafkaWait.until(PATIENCE, "the kernel to throttle the process",
        () -> Long.parseLong(cpuStat(task).get("nr_throttled")) > 0);
  }

  @Test
  void aRestartedEnforcerReconcilesEveryGroupWithTheLatestDecisions() throws Exception {
    sandbox = Sandboxes.openV1WithFreezerOrSkip();
    BusyAndIdle tasks = busyAndIdleWithQuickReclaim();
    TaskId busy = tasks.busy();
    TaskId idle = tasks.idle();
    // A floor of 0.01 CPU: a ladder of 14 steps, so the idle task is still being stepped down after the restart.
    spec(idle, List.of("job_cpu_monitor.min_cpu_limit=0.01"));
    start(CgroupLayout.V1);
    KafkaWait.until(PATIENCE, "the idle task's first steps down", () -> shares(idle) <= 700);

    stack.stopEnforcer();
    long decidedAtStop = decision(idle).getCgroup().getShares();
    // While the enforcer is away someone else writes both groups, and the idle task keeps being decided.
    write(busy, "cpu.shares", "5000");
    write(idle, "cpu.shares", "5000");
    KafkaWait.until(PATIENCE, "a decision the stopped enforcer did not see",
        () -> decision(idle).getCgroup().getShares() < decidedAtStop);
    assertThat(shares(idle)).isEqualTo(5000);

    stack.startEnforcer();
    KafkaWait.until(PATIENCE, "every group to hold its latest decision again", () -> {
      Map<String, CpuDecision> decisions = latest(topics.cpuDecisions());
      return shares(busy) == decisions.get(key(busy)).getCgroup().getShares()
          && shares(idle) == decisions.get(key(idle)).getCgroup().getShares();
    });
    assertThat(shares(busy)).isEqualTo(1000);
    assertThat(shares(idle)).isLessThan((int) decidedAtStop);
  }

  @Test
  void theKillSwitchOffPutsBackTheValuesFromBeforeQuotaflow() throws Exception {
    sandbox = Sandboxes.openV1WithFreezerOrSkip();
    TaskId idle = idleTask();
    write(idle, "cpu.shares", "777");
    write(idle, "cpu.cfs_quota_us", "300000");
    cluster("enforcement=ON", "enforce_per_period_quota=true");
    spec(idle, QUICK_RECLAIM);
    start(CgroupLayout.V1);
    KafkaWait.until(PATIENCE, "Quotaflow's values in the group",
        () -> shares(idle) <= 700 && read(idle, "cpu.cfs_quota_us").equals("103000"));

    cluster("enforcement=OFF");
    KafkaWait.until(PATIENCE, "the values from before Quotaflow",
        () -> shares(idle) == 777 && read(idle, "cpu.cfs_quota_us").equals("300000"));
  }

  @Test
  void onTheV2TreeSamplesFromCpuStatDriveDecisionsAndAFreezeStopsTheProcess() throws Exception {
    sandbox = Sandboxes.openOrSkip(CgroupLayout.V2);
    BusyAndIdle tasks = busyAndIdleWithQuickReclaim();
    TaskId busy = tasks.busy();
    TaskId idle = tasks.idle();
    start(CgroupLayout.V2);

    // The collector reads usage_usec from cpu.stat; the monitor sees the idle task idle and steps it down.
    KafkaWait.until(PATIENCE, "a decision stepping the idle task down",
        () -> decision(idle) != null && decision(idle).getSoftLimitCpu() < 0.5);
    assertThat(decision(busy).getSoftLimitCpu()).isEqualTo(1.0);
    if (!sandbox.cgroups().cpuSettingsSupported()) {
      // This kernel's v2 tree offers no cpu controller to our groups: the enforcer says so rather than pretend.
      KafkaWait.until(PATIENCE, "the enforcer to report the CPU decision it could not apply",
          () -> latest(topics.enforcementResults()).containsKey(key(idle)));
      assertThat(latest(topics.enforcementResults()).get(key(idle)).getStatus()).isEqualTo(EnforcementStatus.FAILED);
    }

    ConfigTopics configTopics = new ConfigTopics(kafka.clientConfig());
    configTopics.publish(topics.freezeDecisions(), key(busy), FreezeDecision.newBuilder().setNode(NODE)
        .setTask(busy.value()).setTsMs(System.currentTimeMillis()).setAction(FreezeAction.FREEZE)
        .setReason("PEAK_SLOT_BUSY").setLeaseMs(60_000L).build());
    KafkaWait.until(PATIENCE, "cgroup.events to say frozen", () -> v2File(busy, "cgroup.events").contains("frozen 1"));
    long before = Long.parseLong(cpuStatV2(busy).get("usage_usec"));
    // Nothing to wait on: a frozen group's counter must simply not move while time passes.
    Thread.sleep(3 * SAMPLE_PERIOD.toMillis());
    assertThat(Long.parseLong(cpuStatV2(busy).get("usage_usec"))).isEqualTo(before);

    configTopics.publish(topics.freezeDecisions(), key(busy), FreezeDecision.newBuilder().setNode(NODE)
        .setTask(busy.value()).setTsMs(System.currentTimeMillis()).setAction(FreezeAction.THAW)
        .setReason("SLOT_FREED").setLeaseMs(null).build());
    KafkaWait.until(PATIENCE, "the group to be thawed and burning again", () -> v2File(busy, "cgroup.events").contains("frozen 0")
        && Long.parseLong(cpuStatV2(busy).get("usage_usec")) > before);
  }

  // ---- helpers ----

  private record BusyAndIdle(TaskId busy, TaskId idle) {}

  /** A busy and an idle task with {@link #QUICK_RECLAIM} specs, enforcement ON. */
  private BusyAndIdle busyAndIdleWithQuickReclaim() throws IOException {
    TaskId busy = sandbox.group("busy");
    sandbox.busy(busy);
    TaskId idle = idleTask();
    cluster("enforcement=ON");
    spec(busy, QUICK_RECLAIM);
    spec(idle, QUICK_RECLAIM);
    return new BusyAndIdle(busy, idle);
  }

  /** A group with a sleeping process in it. */
  private TaskId idleTask() throws IOException {
    TaskId task = sandbox.group("idle");
    sandbox.idle(task);
    return task;
  }

  private void start(CgroupLayout layout) throws Exception {
    stack = NodeStack.start(new NodeStack.Settings(kafka.clientConfig(), topics.settings(), NODE, sandbox.config(),
        workDir.resolve("stack"), SAMPLE_PERIOD, Duration.ofMillis(100)), kafka.registryClient(),
        OpsServer.newRegistry("e2e"));
  }

  private void cluster(String... assignments) {
    List<String> args = new ArrayList<>(List.of("cluster", "set"));
    args.addAll(List.of(assignments));
    new OperatorTool(kafka, prefix, PARTITIONS).withTopics().run(args);
  }

  private void spec(TaskId task, List<String> assignments) {
    List<String> args = new ArrayList<>(List.of("spec", "set", key(task)));
    args.addAll(assignments);
    new OperatorTool(kafka, prefix, PARTITIONS).withTopics().run(args);
  }

  private static String key(TaskId task) {
    return NODE + "/" + task.value();
  }

  private <V> Map<String, V> latest(io.quotaflow.schemas.Topic<String, V> topic) {
    return new ConfigTopics(kafka.clientConfig()).latest(topic, NODE);
  }

  private CpuDecision decision(TaskId task) {
    return latest(topics.cpuDecisions()).get(key(task));
  }

  private int shares(TaskId task) {
    return Integer.parseInt(read(task, "cpu.shares"));
  }

  private String read(TaskId task, String file) {
    try {
      return sandbox.read("cpu", task, file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Map<String, String> cpuStat(TaskId task) {
    return keyValues(read(task, "cpu.stat"));
  }

  private Map<String, String> cpuStatV2(TaskId task) {
    return keyValues(v2File(task, "cpu.stat"));
  }

  private String v2File(TaskId task, String file) {
    try {
      return sandbox.read("unified", task, file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, String> keyValues(String text) {
    Map<String, String> values = new java.util.HashMap<>();
    for (String line : text.split("\n")) {
      String[] parts = line.trim().split("\\s+");
      if (parts.length == 2) {
        values.put(parts[0], parts[1]);
      }
    }
    return values;
  }

  private void write(TaskId task, String file, String value) throws IOException {
    Files.writeString(sandbox.parentDir("cpu").resolve(task.value()).resolve(file), value);
  }
}
