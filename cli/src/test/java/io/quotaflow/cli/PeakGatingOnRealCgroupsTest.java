package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.CgroupSandbox;
import io.quotaflow.cgroups.FreezerState;
import io.quotaflow.cgroups.Sandboxes;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.cli.demo.NodeStack;
import io.quotaflow.cli.demo.Workload;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.TestTopics;
import io.quotaflow.testharness.WithKafka;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memory peak gating end to end on real cgroups (DESIGN §4, issue 13 item 5): stepping allocators
 * ({@link Workload#stdinControlled}) in real memory + freezer + cpu groups, the collector sampling
 * their anonymous memory, the streams app's gate deciding, the enforcer freezing and thawing, and
 * the test reading the kernel's own files. One peak slot (COUNT): the first task to cross
 * 1.1 × normal holds it, the next ones wait frozen in FIFO order; and with the streams app gone the
 * enforcer thaws a waiting task when its lease runs out, and nothing it did not freeze.
 */
@WithKafka
class PeakGatingOnRealCgroupsTest {

  private static final String NODE = "gate-node";
  private static final int PARTITIONS = 3;
  private static final Duration SAMPLE_PERIOD = Duration.ofMillis(200);
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final long NORMAL_MB = 64;
  /** Twice normal: well above the 1.1 × normal threshold. */
  private static final long PEAK_MB = 128;
  /** The allocator works in whole MiB and the JVM's own memory wobbles a little. */
  private static final long TOLERANCE_MB = 3;
  /** Long enough that no lease runs out while the streams app runs and renews it. */
  private static final Duration LONG_LEASE = Duration.ofMinutes(3);
  /** At least twice the sample period, as the config validation demands; short, so the test is. */
  private static final Duration SHORT_LEASE = Duration.ofSeconds(5);

  /** Pipeline delay before the enforcer receives a renewal, plus its tick: the expiry thaw comes within this. */
  private static final Duration EXPIRY_SLACK = Duration.ofSeconds(10);

  private KafkaEnv kafka;
  private String prefix;
  private Topics topics;
  private CgroupSandbox sandbox;
  private Kernel kernel;
  private NodeStack stack;
  private final Map<TaskId, Process> allocators = new HashMap<>();
  private final List<AutoCloseable> tails = new ArrayList<>();
  private NodeTopicTail<FreezeDecision> freezes;
  private NodeTopicTail<CgroupSample> samples;
  @TempDir
  Path workDir;

  @BeforeEach
  void setUp(KafkaEnv env) {
    kafka = env;
    prefix = TestTopics.uniquePrefix("gate");
    topics = Topics.create(new Topics.Settings(prefix, PARTITIONS, true), kafka.registryClient());
  }

  @AfterEach
  void tearDown() throws Exception {
    try {
      for (AutoCloseable tail : tails) {
        tail.close();
      }
      if (stack != null) {
        stack.close();
      }
    } finally {
      if (sandbox != null) {
        sandbox.close(); // thaws, kills by handle, removes the groups
      }
    }
  }

  @Test
  void secondAndThirdPeakWaitFrozenInFifoOrderUntilTheSlotFrees() throws Exception {
    assumeTrue(Files.isDirectory(CgroupConfig.DEFAULT_ROOT.resolve("memory")),
        "no cgroup v1 memory hierarchy under " + CgroupConfig.DEFAULT_ROOT + " on this machine");
    sandbox = Sandboxes.openV1WithFreezerOrSkip();
    fifoOfPeaks(CgroupLayout.V1);
  }

  @Test
  void onTheV2TreeTheSameWhereItHasAMemoryController() throws Exception {
    sandbox = Sandboxes.openOrSkip(CgroupLayout.V2);
    Path parent = sandbox.parentDir("unified");
    String controllers = Files.readString(parent.resolve("cgroup.controllers")).trim();
    assumeTrue((" " + controllers + " ").contains(" memory "),
        "cgroup v2 at " + parent + " offers no memory controller to task groups (cgroup.controllers: '"
            + controllers + "'): no anonymous memory to gate on");
    fifoOfPeaks(CgroupLayout.V2);
  }

  private void fifoOfPeaks(CgroupLayout layout) throws Exception {
    kernel = new Kernel(sandbox, layout);
    TaskId first = allocatorAtNormal("peak-a");
    TaskId second = allocatorAtNormal("peak-b");
    TaskId third = allocatorAtNormal("peak-c");
    gatedCluster(LONG_LEASE);
    for (TaskId task : List.of(first, second, third)) {
      gatedSpec(task);
    }
    start(layout);

    step(first, PEAK_MB);
    gateSaw(first, PEAK_MB);
    assertThat(kernel.frozen(first)).as("the first peak holds the slot and runs").isFalse();

    long crossed = System.nanoTime();
    step(second, PEAK_MB);
    KafkaWait.until(PATIENCE, "the second task frozen by the kernel", () -> kernel.frozen(second));
    long freezeMs = msSince(crossed);
    // The reflex may have frozen it before the gate's decision is out: the kernel's state comes first then.
    KafkaWait.until(PATIENCE, "the gate's decision on the second task", () -> !freezes.values(key(second)).isEmpty());
    String secondFrozenBy = freezes.values(key(second)).get(0).getReason();
    assertThat(freezes.values(key(second))).first().satisfies(d -> {
      assertThat(d.getAction()).isEqualTo(FreezeAction.FREEZE);
      // The enforcer's reflex freezes it between samples and the gate adopts that, unless the gate's own sample
      // of the crossing reaches it first (docs/memory-gating.md, The reflex): the same place, the same lease.
      assertThat(d.getReason()).isIn("PEAK_SLOT_BUSY", "REFLEX_ADOPTED");
      assertThat(d.getQueuePosition()).isZero();
      assertThat(d.getLeaseMs()).isEqualTo(LONG_LEASE.toMillis());
    });
    cpuStandsStill(second, first);

    step(third, PEAK_MB);
    KafkaWait.until(PATIENCE, "the third task frozen by the kernel", () -> kernel.frozen(third));
    KafkaWait.until(PATIENCE, "the gate's decision on the third task", () -> !freezes.values(key(third)).isEmpty());
    assertThat(freezes.values(key(third))).first().satisfies(d -> {
      assertThat(d.getAction()).isEqualTo(FreezeAction.FREEZE);
      assertThat(d.getQueuePosition()).as("queued behind the second").isEqualTo(1);
    });
    cpuStandsStill(third, first);

    long released = System.nanoTime();
    step(first, NORMAL_MB);
    await("the head of the queue (the second task) thawed", () -> !kernel.frozen(second));
    long thawMs = msSince(released);
    assertThat(kernel.frozen(third)).as("the third still waits behind the second").isTrue();
    assertThat(last(second)).satisfies(d -> {
      assertThat(d.getAction()).isEqualTo(FreezeAction.THAW);
      assertThat(d.getReason()).isEqualTo("SLOT_FREED");
    });
    long secondCpu = kernel.cpuUsec(second);
    KafkaWait.until(PATIENCE, "the thawed task to burn CPU again", () -> kernel.cpuUsec(second) > secondCpu);
    // The gate has now seen the second task at its peak, holding the slot: the third must still wait.
    gateSaw(second, PEAK_MB);
    assertThat(kernel.frozen(third)).as("the third waits while the second holds the slot").isTrue();

    step(second, NORMAL_MB);
    KafkaWait.until(PATIENCE, "the third task thawed once the second fell back", () -> !kernel.frozen(third));
    assertThat(last(third).getReason()).isEqualTo("SLOT_FREED");
    assertThat(freezes.values(key(first))).as("the slot holder is never frozen").isEmpty();
    assertThat(thawOrder()).containsExactly(key(second), key(third));
    System.out.printf(Locale.ROOT, "peak gating on %s: crossing → FROZEN %d ms (first FREEZE: %s), fall-back → head THAWED %d ms%n",
        layout, freezeMs, secondFrozenBy, thawMs);
  }

  @Test
  void withTheStreamsAppStoppedTheEnforcerThawsAWaitingTaskWhenItsLeaseRunsOutAndOnlyIt() throws Exception {
    assumeTrue(Files.isDirectory(CgroupConfig.DEFAULT_ROOT.resolve("memory")),
        "no cgroup v1 memory hierarchy under " + CgroupConfig.DEFAULT_ROOT + " on this machine");
    sandbox = Sandboxes.openV1WithFreezerOrSkip();
    kernel = new Kernel(sandbox, CgroupLayout.V1);
    // Frozen by the test itself, not by the enforcer: it has no lease, so nothing may thaw it.
    TaskId bystander = sandbox.group("bystander");
    sandbox.busy(bystander);
    assertThat(sandbox.cgroups().freeze(bystander, Duration.ofSeconds(5)).state()).isEqualTo(FreezerState.FROZEN);
    TaskId holder = allocatorAtNormal("holder");
    TaskId waiter = allocatorAtNormal("waiter");
    gatedCluster(SHORT_LEASE);
    gatedSpec(holder);
    gatedSpec(waiter);
    start(CgroupLayout.V1);

    step(holder, PEAK_MB);
    gateSaw(holder, PEAK_MB);
    step(waiter, PEAK_MB);
    KafkaWait.until(PATIENCE, "the waiter frozen by the kernel", () -> kernel.frozen(waiter));
    KafkaWait.until(PATIENCE, "a lease renewal for the waiter while it waits",
        () -> freezes.values(key(waiter)).stream().anyMatch(d -> d.getReason().equals("LEASE_RENEWAL")));

    stack.stopStreams();
    long stopped = System.nanoTime();
    assertThat(kernel.frozen(waiter)).as("still frozen right after the streams app stopped").isTrue();
    FreezeDecision lastRenewal = freezes.recordsToEnd().stream()
        .filter(r -> r.key().equals(key(waiter))).map(r -> r.value()).reduce((a, b) -> b).orElseThrow();
    assertThat(lastRenewal.getAction()).isEqualTo(FreezeAction.FREEZE);
    KafkaWait.until(SHORT_LEASE.plus(PATIENCE), "the enforcer to thaw the waiter when its lease runs out",
        () -> !kernel.frozen(waiter));
    long thawedAtMs = System.currentTimeMillis();
    long thawMs = msSince(stopped);
    // The enforcer counts the lease from when it received the last renewal, which is after the renewal's stream time.
    assertThat(thawedAtMs).as("thawed only once the last renewal's lease ran out")
        .isGreaterThanOrEqualTo(lastRenewal.getTsMs() + SHORT_LEASE.toMillis());
    assertThat(thawedAtMs).as("thawed soon after that (one enforcer tick, no other lease due)")
        .isLessThanOrEqualTo(lastRenewal.getTsMs() + SHORT_LEASE.toMillis() + EXPIRY_SLACK.toMillis());
    try (NodeTopicTail<EnforcementResult> results = new NodeTopicTail<>(kafka, topics.enforcementResults(), NODE)) {
      KafkaWait.until(PATIENCE, "the enforcer to report the expired lease",
          () -> results.values(key(waiter)).stream().anyMatch(r -> r.getKind() == EnforcementKind.FREEZE
              && r.getStatus() == EnforcementStatus.LEASE_EXPIRED));
      assertThat(results.values(key(bystander))).as("nothing was ever done to the bystander").isEmpty();
    }
    assertThat(kernel.frozen(bystander)).as("a group the enforcer did not freeze stays frozen").isTrue();
    assertThat(kernel.frozen(holder)).isFalse();
    System.out.printf(Locale.ROOT, "lease expiry: streams app stopped → waiter thawed after %d ms,"
        + " %d ms after the last renewal's ts_ms (lease %d ms)%n", thawMs, thawedAtMs - lastRenewal.getTsMs(),
        SHORT_LEASE.toMillis());
  }

  // ---- helpers ----

  /** A stepping allocator in its own group, holding {@link #NORMAL_MB} before the gate starts looking. */
  private TaskId allocatorAtNormal(String name) throws IOException {
    TaskId task = sandbox.group(name);
    allocators.put(task, sandbox.spawn(task, Workload.stdinControlled(PEAK_MB + 64)));
    step(task, NORMAL_MB);
    KafkaWait.until(PATIENCE, name + " at " + NORMAL_MB + " MiB", () -> Math.abs(kernel.anonMb(task) - NORMAL_MB) <= TOLERANCE_MB);
    return task;
  }

  /** Tells an allocator how much anonymous memory to hold; a frozen one reads it when thawed. */
  private void step(TaskId task, long mb) throws IOException {
    OutputStream in = allocators.get(task).getOutputStream();
    in.write((mb + "\n").getBytes(StandardCharsets.US_ASCII));
    in.flush();
  }

  /**
   * Waits until a sample of {@code task} at {@code mb} is in the samples topic and the streams app has
   * committed past it: from then on the gate has acted on that usage.
   */
  private void gateSaw(TaskId task, long mb) {
    long bytes = (mb - TOLERANCE_MB) << 20;
    KafkaWait.until(PATIENCE, "a sample of " + task + " at " + mb + " MiB", () -> samples.values(key(task)).stream()
        .anyMatch(s -> s.getMemoryAnonBytes() != null && s.getMemoryAnonBytes() >= bytes));
    KafkaWait.consumerGroupCaughtUp(kafka, prefix + "streams", List.of(topics.samples().name()), PATIENCE);
  }

  /** {@link KafkaWait#until} whose failure says what the gate saw: the latest samples and every freeze decision. */
  private void await(String what, java.util.function.BooleanSupplier condition) {
    try {
      KafkaWait.until(PATIENCE, what, condition);
    } catch (AssertionError e) {
      StringBuilder seen = new StringBuilder(e.getMessage()).append("\nfreeze decisions:");
      freezes.records().forEach(r -> seen.append("\n  ").append(r.key()).append(' ').append(r.value()));
      seen.append("\nlatest samples:");
      Map<String, CgroupSample> latest = new java.util.TreeMap<>();
      samples.recordsToEnd().forEach(r -> latest.put(r.key(), r.value()));
      latest.forEach((k, v) -> seen.append("\n  ").append(k).append(' ').append(v));
      throw new AssertionError(seen.toString(), e);
    }
  }

  /**
   * A frozen group's CPU counter does not move while a running peer burns: the wait is on the peer
   * (50 ms of its CPU, half a second at its tenth of a core), never on a guessed time.
   */
  private void cpuStandsStill(TaskId frozen, TaskId running) {
    long before = kernel.cpuUsec(frozen);
    long peerBefore = kernel.cpuUsec(running);
    KafkaWait.until(PATIENCE, running + " to burn 50 ms of CPU", () -> kernel.cpuUsec(running) >= peerBefore + 50_000);
    assertThat(kernel.cpuUsec(frozen)).as("CPU time of frozen %s", frozen).isEqualTo(before);
  }

  private FreezeDecision last(TaskId task) {
    List<FreezeDecision> decisions = freezes.values(key(task));
    assertThat(decisions).as("freeze decisions of %s", task).isNotEmpty();
    return decisions.get(decisions.size() - 1);
  }

  /** The tasks thawed because a slot freed, in the order the gate thawed them. */
  private List<String> thawOrder() {
    return freezes.records().stream()
        .filter(r -> r.value() != null && r.value().getAction() == FreezeAction.THAW
            && r.value().getReason().equals("SLOT_FREED"))
        .map(r -> r.key()).toList();
  }

  private void gatedCluster(Duration lease) {
    new OperatorTool(kafka, prefix, PARTITIONS).withTopics().run("cluster", "set", "enforcement=ON", "peak_gating_mode=COUNT",
        "max_concurrent_peaks=1", "peak_threshold_ratio=1.1", "peak_release_ratio=1.05",
        "freeze_lease_ms=" + lease.toMillis(), "task_idle_timeout_ms=60000");
  }

  private void gatedSpec(TaskId task) {
    new OperatorTool(kafka, prefix, PARTITIONS).withTopics().run("spec", "set", key(task), "operation=e2e-peaks", "ncpus=1",
        "memory_normal_bytes=" + (NORMAL_MB << 20), "memory_peak_bytes=" + (PEAK_MB << 20));
  }

  private void start(CgroupLayout layout) throws Exception {
    stack = NodeStack.start(new NodeStack.Settings(kafka.clientConfig(), topics.settings(), NODE, sandbox.config(),
        workDir.resolve("stack"), SAMPLE_PERIOD, Duration.ofMillis(100)), kafka.registryClient(),
        OpsServer.newRegistry("e2e-gate"));
    freezes = new NodeTopicTail<>(kafka, topics.freezeDecisions(), NODE);
    samples = new NodeTopicTail<>(kafka, topics.samples(), NODE);
    tails.add(freezes);
    tails.add(samples);
  }

  private static String key(TaskId task) {
    return NODE + "/" + task.value();
  }

  private static long msSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }

  /** What the kernel says of a task group, read from its own files (v1 or v2), not through the code under test. */
  private record Kernel(CgroupSandbox sandbox, CgroupLayout layout) {

    boolean frozen(TaskId task) {
      return layout == CgroupLayout.V2
          ? read("unified", task, "cgroup.events").contains("frozen 1")
          : read("freezer", task, "freezer.state").equals("FROZEN");
    }

    long cpuUsec(TaskId task) {
      return layout == CgroupLayout.V2
          ? keyed(read("unified", task, "cpu.stat"), "usage_usec")
          : Long.parseLong(read("cpuacct", task, "cpuacct.usage")) / 1000;
    }

    double anonMb(TaskId task) {
      long bytes = layout == CgroupLayout.V2
          ? keyed(read("unified", task, "memory.stat"), "anon")
          : keyed(read("memory", task, "memory.stat"), "total_rss");
      return bytes / (double) (1 << 20);
    }

    private String read(String mount, TaskId task, String file) {
      try {
        return sandbox.read(mount, task, file);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static long keyed(String text, String key) {
      for (String line : text.split("\n")) {
        String[] parts = line.trim().split("\\s+");
        if (parts.length == 2 && parts[0].equals(key)) {
          return Long.parseLong(parts[1]);
        }
      }
      throw new IllegalStateException("no " + key + " in " + text);
    }
  }
}
