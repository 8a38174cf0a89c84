package io.quotaflow.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupSandbox;
import io.quotaflow.cgroups.FreezerState;
import io.quotaflow.cgroups.Sandboxes;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.cli.NodeTopicTail;
import io.quotaflow.cli.OperatorTool;
import io.quotaflow.cli.demo.Workload;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.testharness.ChildJvm;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19 item 1d: {@code quotaflow streams} SIGKILLed while its memory peak gate holds tasks
 * frozen. The collector, the streams app and the enforcer are each their own JVM; the tasks are
 * stepping allocators in real v1 groups, frozen by the real pipeline (one peak slot, the others
 * wait). With no one left to renew their leases, the enforcer thaws every task it froze once its
 * lease runs out, one per {@code --lease-thaw-interval}, and never a group the test froze itself.
 * The in-process model is {@code PeakGatingOnRealCgroupsTest}.
 */
@WithKafka
class StreamsKillWhileFrozenTest {

  private static final String NODE = "frozen-node";
  private static final int PARTITIONS = 3;
  private static final String SAMPLE_PERIOD = "200ms";
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final long NORMAL_MB = 64;
  /** Twice normal: well above the 1.1 × normal threshold. */
  private static final long PEAK_MB = 128;
  /** The allocator works in whole MiB and the JVM's own memory wobbles a little. */
  private static final long TOLERANCE_MB = 3;
  /** Short, so the test is; three waiters' leases run out within about a second of each other. */
  private static final Duration LEASE = Duration.ofSeconds(6);
  /** Well above the spread of those expiries, so the enforcer must hold thaws back to keep it. */
  private static final Duration THAW_INTERVAL = Duration.ofSeconds(2);
  /** Renewal still in the pipeline when the app died, the enforcer's 200 ms tick, a loaded machine. */
  private static final Duration EXPIRY_SLACK = Duration.ofSeconds(10);
  /** How late the test may see a thaw in the kernel's file (its polling, a busy core). */
  private static final Duration OBSERVATION_SLACK = Duration.ofMillis(250);

  @TempDir Path dir;
  KafkaEnv kafka;
  String prefix;
  Topics topics;
  CgroupSandbox sandbox;
  CliProcesses processes;
  final Map<TaskId, Process> allocators = new HashMap<>();
  final List<AutoCloseable> tails = new ArrayList<>();

  @BeforeEach
  void setUp(KafkaEnv env) throws Exception {
    assumeTrue(Files.isDirectory(CgroupConfig.DEFAULT_ROOT.resolve("memory")),
        "no cgroup v1 memory hierarchy under " + CgroupConfig.DEFAULT_ROOT + " on this machine");
    sandbox = Sandboxes.openV1WithFreezerOrSkip();
    kafka = env;
    prefix = TestTopics.uniquePrefix("streams-kill");
    topics = Topics.create(new Topics.Settings(prefix, PARTITIONS, true), kafka.registryClient());
    processes = new CliProcesses(dir.resolve("logs"));
  }

  @AfterEach
  void tearDown() throws Exception {
    try {
      if (processes != null) {
        processes.close();
      }
      for (AutoCloseable tail : tails) {
        tail.close();
      }
    } finally {
      if (sandbox != null) {
        sandbox.close(); // thaws, kills by handle, removes the groups
      }
    }
  }

  @Test
  void everyTaskItFrozeIsThawedWithinItsLeaseOneAtATimeAndNoOtherGroup() throws Exception {
    OperatorTool operator = new OperatorTool(kafka, prefix, PARTITIONS).withTopics();
    operator.run("cluster", "set", "enforcement=ON", "peak_gating_mode=COUNT", "max_concurrent_peaks=1",
        "peak_threshold_ratio=1.1", "peak_release_ratio=1.05", "freeze_lease_ms=" + LEASE.toMillis(),
        "task_idle_timeout_ms=60000");
    List<String> waiterNames = List.of("waiter-1", "waiter-2", "waiter-3");
    for (String task : waiterNames) {
      spec(operator, task);
    }
    spec(operator, "holder");
    // The processes start while the allocators do: both take seconds of JVM start.
    ChildJvm streams = startNode();
    // Frozen by the test itself, not by the enforcer: it has no lease, so nothing may thaw it.
    TaskId bystander = sandbox.group("bystander");
    sandbox.busy(bystander);
    assertThat(sandbox.cgroups().freeze(bystander, Duration.ofSeconds(5)).state()).isEqualTo(FreezerState.FROZEN);
    TaskId holder = allocatorAtNormal("holder");
    List<TaskId> waiters = new ArrayList<>();
    for (String name : waiterNames) {
      waiters.add(allocatorAtNormal(name));
    }
    awaitServing();
    NodeTopicTail<CgroupSample> samples = tail(topics.samples());
    NodeTopicTail<FreezeDecision> freezes = tail(topics.freezeDecisions());

    step(holder, PEAK_MB);
    long peakBytes = (PEAK_MB - TOLERANCE_MB) << 20;
    KafkaWait.until(PATIENCE, "a sample of the holder at its peak", () -> samples.values(key(holder)).stream()
        .anyMatch(s -> s.getMemoryAnonBytes() != null && s.getMemoryAnonBytes() >= peakBytes));
    KafkaWait.consumerGroupCaughtUp(kafka, prefix + "streams", List.of(topics.samples().name()), PATIENCE);
    for (TaskId waiter : waiters) {
      step(waiter, PEAK_MB);
    }
    awaitOrTails("every waiter frozen by the kernel", () -> waiters.stream().allMatch(this::frozen));
    awaitOrTails("a lease renewal for every waiter", () -> waiters.stream().allMatch(w ->
        freezes.values(key(w)).stream().anyMatch(d -> d.getReason().equals("LEASE_RENEWAL"))));
    assertThat(frozen(holder)).as("the holder has the slot").isFalse();

    streams.kill();
    long killedMs = System.currentTimeMillis();
    Map<TaskId, Long> thawedAtMs = new LinkedHashMap<>();
    long deadline = System.nanoTime() + LEASE.plus(THAW_INTERVAL.multipliedBy(waiters.size())).plus(PATIENCE).toNanos();
    while (thawedAtMs.size() < waiters.size() && System.nanoTime() < deadline) {
      for (TaskId waiter : waiters) {
        if (!thawedAtMs.containsKey(waiter) && !frozen(waiter)) {
          thawedAtMs.put(waiter, System.currentTimeMillis());
        }
      }
      Thread.sleep(10); // polling the kernel's file: the thaw times are what is measured
    }
    assertThat(thawedAtMs.keySet()).as("waiters thawed by the enforcer").containsExactlyInAnyOrderElementsOf(waiters);

    Map<TaskId, FreezeDecision> lastRenewal = new HashMap<>();
    for (ConsumerRecord<String, FreezeDecision> record : freezes.recordsToEnd()) {
      waiters.stream().filter(w -> key(w).equals(record.key())).forEach(w -> lastRenewal.put(w, record.value()));
    }
    List<String> figures = new ArrayList<>();
    for (TaskId waiter : waiters) {
      FreezeDecision last = lastRenewal.get(waiter);
      assertThat(last.getAction()).as("%s's last decision", waiter).isEqualTo(FreezeAction.FREEZE);
      long leaseEndMs = last.getTsMs() + LEASE.toMillis();
      long thawed = thawedAtMs.get(waiter);
      // The enforcer counts the lease from when it received the renewal, which is after its ts_ms.
      assertThat(thawed).as("%s thawed only once its lease ran out", waiter).isGreaterThanOrEqualTo(leaseEndMs);
      assertThat(thawed).as("%s thawed within its lease, the thaws paced before it, and a margin", waiter)
          .isLessThanOrEqualTo(leaseEndMs + THAW_INTERVAL.toMillis() * (waiters.size() - 1) + EXPIRY_SLACK.toMillis());
      figures.add(String.format(Locale.ROOT, "%s %d ms after the kill, %d ms after its last renewal's ts_ms",
          waiter, thawed - killedMs, thawed - last.getTsMs()));
    }
    List<Long> order = thawedAtMs.values().stream().sorted().toList();
    List<Long> spacingMs = new ArrayList<>();
    for (int i = 1; i < order.size(); i++) {
      spacingMs.add(order.get(i) - order.get(i - 1));
    }
    assertThat(spacingMs).as("one thaw per --lease-thaw-interval (%s)", THAW_INTERVAL)
        .allMatch(ms -> ms >= THAW_INTERVAL.minus(OBSERVATION_SLACK).toMillis());

    try (NodeTopicTail<EnforcementResult> results = tail(topics.enforcementResults())) {
      awaitOrTails("a LEASE_EXPIRED result for every waiter", () -> waiters.stream().allMatch(w ->
          results.values(key(w)).stream().anyMatch(r -> r.getKind() == EnforcementKind.FREEZE
              && r.getStatus() == EnforcementStatus.LEASE_EXPIRED && Boolean.FALSE.equals(r.getReadFrozen()))));
      assertThat(results.values(key(bystander))).as("nothing was ever done to the bystander").isEmpty();
      assertThat(results.values(key(holder))).as("the holder was never frozen")
          .noneMatch(r -> r.getKind() == EnforcementKind.FREEZE);
    }
    assertThat(frozen(bystander)).as("a group the enforcer did not freeze stays frozen").isTrue();
    assertThat(frozen(holder)).isFalse();
    System.out.printf(Locale.ROOT, "streams SIGKILL with %d tasks frozen (lease %d ms, --lease-thaw-interval %d ms):"
        + " thawed %s; spacing %s ms; the test's own frozen group still FROZEN%n", waiters.size(), LEASE.toMillis(),
        THAW_INTERVAL.toMillis(), String.join("; ", figures), spacingMs);
  }

  /** The streams app, the collector and the enforcer of {@link #NODE}, each its own process; returns the app. */
  private ChildJvm startNode() {
    List<String> streamsArgs = new ArrayList<>(List.of("streams", "--application-id", prefix + "streams",
        "--state-dir", dir.resolve("streams").toString(), "--partitions", String.valueOf(PARTITIONS),
        "--commit-interval", "100ms", "--http-host", "127.0.0.1", "--http-port", "0"));
    streamsArgs.addAll(CliProcesses.connection(kafka, prefix));
    ChildJvm streams = processes.start("streams", streamsArgs);
    List<String> collectorArgs = new ArrayList<>(List.of("collector", "--period", SAMPLE_PERIOD,
        "--http-host", "127.0.0.1", "--http-port", "0"));
    collectorArgs.addAll(CliProcesses.connection(kafka, prefix));
    collectorArgs.addAll(CliProcesses.node(NODE, sandbox));
    processes.start("collector", collectorArgs);
    List<String> enforcerArgs = new ArrayList<>(List.of("enforcer", "--lease-thaw-interval", THAW_INTERVAL.toMillis() + "ms",
        "--state-file", dir.resolve("enforcer.json").toString(), "--http-host", "127.0.0.1", "--http-port", "0"));
    enforcerArgs.addAll(CliProcesses.connection(kafka, prefix));
    enforcerArgs.addAll(CliProcesses.node(NODE, sandbox));
    processes.start("enforcer", enforcerArgs);
    return streams;
  }

  /** Waits until every process serves /metrics: started and connected. */
  private void awaitServing() {
    processes.started().forEach(CliProcesses::opsPort);
  }

  private static void spec(OperatorTool operator, String task) {
    operator.run("spec", "set", NODE + "/" + task, "operation=chaos-peaks", "ncpus=1",
        "memory_normal_bytes=" + (NORMAL_MB << 20), "memory_peak_bytes=" + (PEAK_MB << 20));
  }

  private <V> NodeTopicTail<V> tail(io.quotaflow.schemas.Topic<String, V> topic) {
    NodeTopicTail<V> tail = new NodeTopicTail<>(kafka, topic, NODE);
    tails.add(tail);
    return tail;
  }

  /** A stepping allocator in its own group, holding {@link #NORMAL_MB} before the gate starts looking. */
  private TaskId allocatorAtNormal(String name) throws IOException {
    TaskId task = sandbox.group(name);
    allocators.put(task, sandbox.spawn(task, Workload.stdinControlled(PEAK_MB + 64)));
    step(task, NORMAL_MB);
    KafkaWait.until(PATIENCE, name + " at " + NORMAL_MB + " MiB", () -> Math.abs(anonMb(task) - NORMAL_MB) <= TOLERANCE_MB);
    return task;
  }

  /** Tells an allocator how much anonymous memory to hold; a frozen one reads it when thawed. */
  private void step(TaskId task, long mb) throws IOException {
    OutputStream in = allocators.get(task).getOutputStream();
    in.write((mb + "\n").getBytes(StandardCharsets.US_ASCII));
    in.flush();
  }

  private void awaitOrTails(String what, java.util.function.BooleanSupplier condition) {
    try {
      KafkaWait.until(PATIENCE, what, condition);
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + processes.tails(), e);
    }
  }

  private boolean frozen(TaskId task) {
    return read("freezer", task, "freezer.state").equals("FROZEN");
  }

  private double anonMb(TaskId task) {
    String stat = read("memory", task, "memory.stat");
    long bytes = stat.lines().map(line -> line.split(" ")).filter(parts -> parts[0].equals("total_rss"))
        .mapToLong(parts -> Long.parseLong(parts[1])).findFirst().orElseThrow();
    return bytes / (double) (1 << 20);
  }

  private String read(String mount, TaskId task, String file) {
    try {
      return sandbox.read(mount, task, file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String key(TaskId task) {
    return NODE + "/" + task.value();
  }
}
