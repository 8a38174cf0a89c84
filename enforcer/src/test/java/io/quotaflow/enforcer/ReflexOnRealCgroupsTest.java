package io.quotaflow.enforcer;

import static io.quotaflow.enforcer.EnforcerFixture.NODE;
import static io.quotaflow.enforcer.EnforcerFixture.about;
import static io.quotaflow.enforcer.EnforcerFixture.answers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupSandbox;
import io.quotaflow.cgroups.Sandboxes;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.Enforcement;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.schemas.avro.GateMode;
import io.quotaflow.schemas.avro.GateTable;
import io.quotaflow.schemas.avro.GateTableTask;
import io.quotaflow.schemas.avro.GateTaskRole;
import io.quotaflow.schemas.avro.PeakGatingMode;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.WithKafka;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory reflex on this machine's real cgroup v1 groups (memory and freezer, our own under a
 * unique test parent) with the embedded broker: a {@link SteppingAllocator} in its own group climbs
 * over the threshold the gate table gives it, and the enforcer freezes it between samples, before
 * its next step; then the reflex lease runs out by itself, or a FREEZE decision adopts it. Skipped,
 * saying why, where cgroups are not writable.
 */
@WithKafka
class ReflexOnRealCgroupsTest {

  static final long MIB = 1 << 20;
  /** The allocator's climb: a step of 64 MiB takes 320 ms, the next step of 448 MiB 2.2 s. */
  static final double MIB_PER_SECOND = 200;
  static final long FIRST_STEP_MIB = 64;
  static final long CROSSING_STEP_MIB = 128;
  static final long NEXT_STEP_MIB = 512;
  /** The threshold lies this far above the usage after the first step: half-way up the crossing step. */
  static final long THRESHOLD_ABOVE_FIRST_STEP = 32 * MIB;

  @TempDir Path dir;
  CgroupSandbox sandbox;
  EnforcerFixture kafka;

  @BeforeEach
  void setUp(KafkaEnv env) throws Exception {
    assumeTrue(Files.isDirectory(CgroupConfig.DEFAULT_ROOT.resolve("memory")),
        "no cgroup v1 memory hierarchy under " + CgroupConfig.DEFAULT_ROOT + " on this machine");
    sandbox = Sandboxes.openV1WithFreezerOrSkip();
    kafka = new EnforcerFixture(env);
    kafka.clusterConfig(ClusterConfig.newBuilder().setCluster("main").setEnforcement(Enforcement.ON)
        .setPeakGatingMode(PeakGatingMode.COUNT).build());
  }

  @AfterEach
  void tearDown() throws Exception {
    try {
      if (kafka != null) {
        kafka.close(); // enforcers first: nothing writes to the groups while they are removed
      }
    } finally {
      if (sandbox != null) {
        sandbox.close(); // thaws, kills and removes the allocators' groups
      }
    }
  }

  @Test
  void aTaskCrossingItsThresholdIsFrozenBeforeItsNextStepAndTheFreezeIsReported() throws Exception {
    PrometheusMeterRegistry meters = OpsServer.newRegistry("enforcer");
    kafka.startWithReflexLease(sandbox.config(), dir.resolve("state.json"), Duration.ofSeconds(5), meters,
        Enforcer.Settings.DEFAULT_REFLEX_LEASE);
    Allocator job = new Allocator("job-1");

    Crossing crossing = climbOverTheThreshold(job, meters);

    EnforcementResult frozen = crossing.result();
    assertThat(frozen.getKind()).isEqualTo(EnforcementKind.FREEZE);
    assertThat(frozen.getNode()).isEqualTo(NODE);
    assertThat(frozen.getReadFrozen()).isTrue();
    assertThat(frozen.getReadMemoryBytes()).as("the reading that crossed").isGreaterThan(crossing.thresholdBytes());
    assertThat(answers(crossing.table()).test(frozen)).as("names the gate table it acted on").isTrue();
    assertThat(frozen.getDetail()).contains("crossed the threshold " + crossing.thresholdBytes(), "reflex lease until");
    assertThat(sandbox.read("freezer", job.group, "freezer.state")).isEqualTo("FROZEN");
    // Stopped before the next step: the group's peak usage (page cache included) stays far below it.
    long peak = Long.parseLong(sandbox.read("memory", job.group, "memory.max_usage_in_bytes"));
    assertThat(peak).as("peak usage, bytes").isLessThan(job.baselineBytes + NEXT_STEP_MIB * MIB);
    assertThat(job.lastRssAnonBytes()).isLessThan(crossing.thresholdBytes() + (NEXT_STEP_MIB - CROSSING_STEP_MIB) * MIB / 2);

    Timer delay = meters.get("quotaflow.enforcer.reflex.delay").timer();
    assertThat(delay.count()).isEqualTo(1);
    assertThat(meters.get("quotaflow.enforcer.reflex.freezes").counter().count()).isEqualTo(1);
    assertThat(meters.get("quotaflow.enforcer.results").tag("kind", "FREEZE").tag("status", "REFLEX_FROZEN").counter()
        .count()).isEqualTo(1);
    System.out.printf("reflex: reading -> FROZEN %.1f ms; read %d MiB anon, threshold %d MiB, peak usage %d MiB"
            + " (the next step would be %d MiB)%n", delay.totalTime(TimeUnit.MICROSECONDS) / 1000.0,
        frozen.getReadMemoryBytes() / MIB, crossing.thresholdBytes() / MIB, peak / MIB,
        (job.baselineBytes + NEXT_STEP_MIB * MIB) / MIB);
  }

  @Test
  void aReflexFreezeNobodyAdoptsIsThawedWhenItsLeaseRunsOut() throws Exception {
    PrometheusMeterRegistry meters = OpsServer.newRegistry("enforcer");
    kafka.startWithReflexLease(sandbox.config(), dir.resolve("state.json"), Duration.ZERO, meters, Duration.ofSeconds(2));
    Allocator job = new Allocator("job-2");

    Crossing crossing = climbOverTheThreshold(job, meters);

    EnforcementResult expired = kafka.awaitResult("the reflex lease's expiry",
        about("job-2").and(r -> r.getStatus() == EnforcementStatus.LEASE_EXPIRED));
    assertThat(answers(crossing.table()).test(expired)).as("names the gate table the reflex acted on").isTrue();
    // The lease starts just before the freezer is written; the result's ts_ms is taken once the kernel said FROZEN.
    assertThat(expired.getTsMs() - crossing.result().getTsMs()).as("thawed when the 2 s lease ran out, not before")
        .isGreaterThanOrEqualTo(1_900);
    assertThat(sandbox.read("freezer", job.group, "freezer.state")).isEqualTo("THAWED");
    // Thawed, the allocator climbs on to the step it was stopped before.
    assertThat(Sandboxes.eventually(Duration.ofSeconds(20), () -> job.heldMib() >= NEXT_STEP_MIB))
        .as("the allocator runs again, up to its next step").isTrue();
    System.out.printf("reflex lease 2 s: thawed %d ms after the freeze%n", expired.getTsMs() - crossing.result().getTsMs());
  }

  @Test
  void aFreezeDecisionAfterTheReflexAdoptsItPastTheReflexLeaseAndAThawOverrulesIt() throws Exception {
    PrometheusMeterRegistry meters = OpsServer.newRegistry("enforcer");
    kafka.startWithReflexLease(sandbox.config(), dir.resolve("state.json"), Duration.ZERO, meters, Duration.ofSeconds(2));
    Allocator job = new Allocator("job-3");

    Crossing crossing = climbOverTheThreshold(job, meters);

    RecordMetadata adopt = kafka.freeze("job-3", FreezeAction.FREEZE, 600_000L);
    EnforcementResult adopted = kafka.awaitAnswer(adopt);
    assertThat(adopted.getStatus()).isEqualTo(EnforcementStatus.UNCHANGED);
    assertThat(adopted.getDetail()).contains("still frozen; lease until");
    // Past the reflex lease: still frozen, and no expiry was reported.
    long reflexLeaseEndMs = crossing.result().getTsMs() + 2_000;
    KafkaWait.until(Duration.ofSeconds(10), "the reflex lease to be over by half a second",
        () -> System.currentTimeMillis() > reflexLeaseEndMs + 500);
    assertThat(sandbox.read("freezer", job.group, "freezer.state")).isEqualTo("FROZEN");

    RecordMetadata thaw = kafka.freeze("job-3", FreezeAction.THAW, null);
    EnforcementResult overruled = kafka.awaitAnswer(thaw);
    assertThat(overruled.getStatus()).isEqualTo(EnforcementStatus.APPLIED);
    assertThat(overruled.getReadFrozen()).isFalse();
    assertThat(sandbox.read("freezer", job.group, "freezer.state")).isEqualTo("THAWED");
    List<EnforcementResult> all = kafka.resultsUntil("the THAW's answer", seen -> seen.stream().anyMatch(answers(thaw)));
    assertThat(all).filteredOn(about("job-3")).extracting(EnforcementResult::getStatus)
        .containsExactly(EnforcementStatus.REFLEX_FROZEN, EnforcementStatus.UNCHANGED, EnforcementStatus.APPLIED);
  }

  @Test
  void aRestartKeepsTheReflexLeaseAndDoesNotApplyAThawTheGateDecidedBeforeTheReflex() throws Exception {
    // The gate's last word before the reflex: the task was thawed (an earlier peak of it ended).
    RecordMetadata earlierThaw = kafka.freeze("job-4", FreezeAction.THAW, null, System.currentTimeMillis() - 60_000);
    Allocator job = new Allocator("job-4");
    Path stateFile = dir.resolve("state.json");
    PrometheusMeterRegistry meters = OpsServer.newRegistry("enforcer");
    Enforcer first = kafka.startWithReflexLease(sandbox.config(), stateFile, Duration.ZERO, meters, Duration.ofSeconds(4));
    Crossing crossing = climbOverTheThreshold(job, meters);

    first.close();
    PrometheusMeterRegistry again = OpsServer.newRegistry("enforcer");
    kafka.startWithReflexLease(sandbox.config(), stateFile, Duration.ZERO, again, Duration.ofSeconds(4));
    assertThat(sandbox.read("freezer", job.group, "freezer.state")).as("still frozen after the restart").isEqualTo("FROZEN");
    assertThat(again.get("quotaflow.enforcer.skipped").tag("reason", "before_reflex").counter().count()).isEqualTo(1);

    EnforcementResult expired = kafka.awaitResult("the reflex lease's expiry after the restart",
        about("job-4").and(r -> r.getStatus() == EnforcementStatus.LEASE_EXPIRED));
    assertThat(answers(crossing.table()).test(expired)).as("the lease kept in the state file names the gate table").isTrue();
    assertThat(sandbox.read("freezer", job.group, "freezer.state")).isEqualTo("THAWED");
    List<EnforcementResult> all = kafka.resultsUntil("the expiry", seen -> seen.stream().anyMatch(answers(crossing.table())
        .and(r -> r.getStatus() == EnforcementStatus.LEASE_EXPIRED)));
    assertThat(all).filteredOn(answers(earlierThaw)).extracting(EnforcementResult::getStatus)
        .as("the earlier THAW, answered by the first start only").containsExactly(EnforcementStatus.UNCHANGED);
  }

  @Test
  void aTaskFirstReadAboveItsThresholdIsFrozenOnATableJustArrivedButNotOnTheTableAbsorbedAtStart() throws Exception {
    Allocator job = new Allocator("job-6");
    job.target(FIRST_STEP_MIB);
    KafkaWait.until(Duration.ofSeconds(20), "the allocator's first step", () -> job.heldMib() >= FIRST_STEP_MIB);
    // Already above: the table's RUNNING row is the gate's word from a sample before it grew.
    long threshold = anonBytes(job.group) - 16 * MIB;
    GateTable watching = table(GateTableTask.newBuilder().setTask(job.group.value()).setRole(GateTaskRole.RUNNING)
        .setInteractive(false).setThresholdBytes(threshold).setPeakBytes(threshold * 4).setAdmitted(false).build());
    kafka.gateTable(watching);
    PrometheusMeterRegistry meters = OpsServer.newRegistry("enforcer");
    kafka.startWithReflexLease(sandbox.config(), dir.resolve("state.json"), Duration.ZERO, meters, Duration.ofSeconds(2));

    // At start the table may be old: a task first read above it is left to the gate.
    awaitWatched(meters, 1);
    Thread.sleep(500); // five more readings
    assertThat(meters.get("quotaflow.enforcer.reflex.freezes").counter().count()).isZero();
    assertThat(sandbox.read("freezer", job.group, "freezer.state")).isEqualTo("THAWED");

    // Admitted (not watched), then a table while tailing that keeps it waiting: the first reading above freezes.
    kafka.gateTable(table(GateTableTask.newBuilder(watching.getTasks().get(0)).setAdmitted(true).build()));
    awaitWatched(meters, 0);
    RecordMetadata tailing = kafka.gateTable(watching);
    EnforcementResult frozen = kafka.awaitResult("the reflex freeze on the new table",
        about(job.group.value()).and(r -> r.getStatus() == EnforcementStatus.REFLEX_FROZEN));
    assertThat(answers(tailing).test(frozen)).as("names the table that just arrived").isTrue();
    assertThat(frozen.getReadMemoryBytes()).isGreaterThan(threshold);
    assertThat(sandbox.read("freezer", job.group, "freezer.state")).isEqualTo("FROZEN");
  }

  @Test
  void theReflexWatchesOnlyWhatTheNodesLastReadableTableAndTheModeAllow() throws Exception {
    PrometheusMeterRegistry meters = OpsServer.newRegistry("enforcer");
    kafka.startWithReflexLease(sandbox.config(), dir.resolve("state.json"), Duration.ZERO, meters, Duration.ofSeconds(2));
    TaskId job = sandbox.group("job-5");
    GateTable watching = table(row(job.value(), false));

    kafka.gateTable(watching);
    awaitWatched(meters, 1);
    kafka.garbage(kafka.topics.gateTables().name(), NODE);
    awaitWatched(meters, 0); // a table it cannot read: the reflex watches nothing
    assertThat(meters.get("quotaflow.enforcer.undecodable").tag("topic", kafka.topics.gateTables().name()).counter()
        .count()).isEqualTo(1);
    kafka.gateTable(watching);
    awaitWatched(meters, 1);
    kafka.gateTable(null);
    awaitWatched(meters, 0); // withdrawn
    kafka.gateTable(table(row(job.value(), true)));
    kafka.gateTable(watching);
    awaitWatched(meters, 1);
    kafka.enforcement(Enforcement.DRY_RUN);
    awaitWatched(meters, 0);
    kafka.enforcement(Enforcement.ON);
    awaitWatched(meters, 1);
  }

  private static GateTableTask row(String task, boolean interactive) {
    return GateTableTask.newBuilder().setTask(task).setRole(GateTaskRole.RUNNING).setInteractive(interactive)
        .setThresholdBytes(64 * MIB).setPeakBytes(256 * MIB).setAdmitted(false).build();
  }

  private static GateTable table(GateTableTask... rows) {
    return GateTable.newBuilder().setNode(NODE).setTsMs(System.currentTimeMillis()).setMode(GateMode.COUNT)
        .setHolders(List.of("holder")).setQueue(List.of()).setAdmitsNewPeak(false).setFreeSlots(0)
        .setTasks(List.of(rows)).build();
  }

  private static void awaitWatched(PrometheusMeterRegistry meters, int tasks) {
    KafkaWait.until(Duration.ofSeconds(30), "the reflex to watch " + tasks + " tasks",
        () -> meters.get("quotaflow.enforcer.reflex.watched.tasks").gauge().value() == tasks);
  }

  /** What the climb over the threshold came to. */
  record Crossing(RecordMetadata table, long thresholdBytes, long crossedAtMs, EnforcementResult result) {}

  /**
   * Brings the allocator to its first step, publishes a gate table that watches it (COUNT, the slot
   * held by another task, the allocator RUNNING and not admitted) with a threshold half-way up the
   * next step, waits until the reflex has read it below, lets it climb, and writes the step after
   * as soon as the allocator's own log shows the crossing.
   */
  private Crossing climbOverTheThreshold(Allocator job, PrometheusMeterRegistry meters) throws Exception {
    job.target(FIRST_STEP_MIB);
    KafkaWait.until(Duration.ofSeconds(20), "the allocator's first step", () -> job.heldMib() >= FIRST_STEP_MIB);
    long threshold = anonBytes(job.group) + THRESHOLD_ABOVE_FIRST_STEP;
    GateTableTask row = GateTableTask.newBuilder().setTask(job.group.value()).setRole(GateTaskRole.RUNNING)
        .setInteractive(false).setThresholdBytes(threshold).setPeakBytes(threshold * 4).setAdmitted(false).build();
    GateTableTask holder = GateTableTask.newBuilder().setTask("holder").setRole(GateTaskRole.HOLDING)
        .setInteractive(false).setThresholdBytes(threshold).setPeakBytes(threshold * 4).setAdmitted(true).build();
    RecordMetadata table = kafka.gateTable(GateTable.newBuilder().setNode(NODE).setTsMs(System.currentTimeMillis())
        .setMode(GateMode.COUNT).setHolders(List.of("holder")).setQueue(List.of()).setAdmitsNewPeak(false)
        .setFreeSlots(0).setBytesLeft(null).setTasks(List.of(holder, row)).build());
    // The gauge moves after a reading: from then on a reading above the threshold is a crossing.
    KafkaWait.until(Duration.ofSeconds(30), "the reflex to watch " + job.group,
        () -> meters.get("quotaflow.enforcer.reflex.watched.tasks").gauge().value() == 1);
    job.target(CROSSING_STEP_MIB);
    long crossedAtMs = job.awaitRssAbove(threshold, Duration.ofSeconds(20));
    job.target(NEXT_STEP_MIB); // right after the crossing: the reflex must stop it before it gets there
    EnforcementResult frozen = kafka.awaitResult("the reflex freeze",
        about(job.group.value()).and(r -> r.getStatus() == EnforcementStatus.REFLEX_FROZEN));
    // ts_ms is the enforcer's clock once the kernel reported FROZEN; the crossing is the allocator's own clock.
    System.out.printf("reflex delay %s: crossing -> FROZEN %d ms%n", job.group, frozen.getTsMs() - crossedAtMs);
    return new Crossing(table, threshold, crossedAtMs, frozen);
  }

  /** The gate's usage of a group: anonymous memory ({@code memory.stat total_rss}). */
  private long anonBytes(TaskId group) throws IOException {
    for (String line : sandbox.read("memory", group, "memory.stat").split("\n")) {
      if (line.startsWith("total_rss ")) {
        return Long.parseLong(line.substring("total_rss ".length()).trim());
      }
    }
    throw new IllegalStateException("no total_rss in the memory.stat of " + group);
  }

  /** A {@link SteppingAllocator} in its own task group. */
  final class Allocator {
    final TaskId group;
    final Path log;
    final Process process;
    final long baselineBytes;

    Allocator(String name) throws Exception {
      group = sandbox.group(name);
      log = dir.resolve(name + ".log");
      Path classes = Path.of(SteppingAllocator.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      process = sandbox.spawn(group, List.of(java, "-Xmx32m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
          "-XX:MaxDirectMemorySize=1g", "-cp", classes.toString(), SteppingAllocator.class.getName(), log.toString(),
          Double.toString(MIB_PER_SECOND)));
      KafkaWait.until(Duration.ofSeconds(20), "the allocator to start", () -> !lines().isEmpty());
      baselineBytes = Long.parseLong(sandbox.read("memory", group, "memory.usage_in_bytes"));
    }

    void target(long mib) throws IOException {
      OutputStream in = process.getOutputStream();
      in.write((mib + "\n").getBytes(StandardCharsets.US_ASCII));
      in.flush();
    }

    /** MiB allocated so far: one log line per MiB after the first. */
    long heldMib() {
      return Math.max(0, lines().size() - 1);
    }

    long lastRssAnonBytes() {
      List<String> lines = lines();
      return lines.isEmpty() ? 0 : Long.parseLong(lines.get(lines.size() - 1).split(" ")[1]);
    }

    /** When, by the allocator's own clock, its anonymous memory first went above {@code bytes}. */
    long awaitRssAbove(long bytes, Duration timeout) {
      long[] at = {-1};
      KafkaWait.until(timeout, "the allocator above " + bytes + " bytes", () -> {
        for (String line : lines()) {
          String[] parts = line.split(" ");
          if (Long.parseLong(parts[1]) > bytes) {
            at[0] = Long.parseLong(parts[0]);
            return true;
          }
        }
        return false;
      });
      return at[0];
    }

    private List<String> lines() {
      try {
        // A line being written has no newline yet: only complete ones count.
        String text = Files.exists(log) ? Files.readString(log) : "";
        int end = text.lastIndexOf('\n');
        return end < 0 ? List.of() : List.of(text.substring(0, end).split("\n"));
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }
}
