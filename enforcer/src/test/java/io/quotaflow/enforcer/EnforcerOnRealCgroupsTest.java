package io.quotaflow.enforcer;

import static io.quotaflow.enforcer.EnforcerFixture.NODE;
import static io.quotaflow.enforcer.EnforcerFixture.about;
import static io.quotaflow.enforcer.EnforcerFixture.answers;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.cgroups.CgroupCpuWrite;
import io.quotaflow.cgroups.CgroupSandbox;
import io.quotaflow.cgroups.Sandboxes;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.schemas.avro.Enforcement;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.WithKafka;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
 * The enforcer end to end: decisions published to the embedded broker, written by the enforcer to
 * this machine's real cgroup v1 groups (our own, under a unique test parent), checked in the
 * kernel's files, and answered on enforcement-results. Skipped, saying why, where cgroups are not
 * writable.
 */
@WithKafka
class EnforcerOnRealCgroupsTest {

  @TempDir Path dir;
  CgroupSandbox sandbox;
  EnforcerFixture kafka;
  Path stateFile;

  @BeforeEach
  void setUp(KafkaEnv env) throws Exception {
    sandbox = Sandboxes.openV1WithFreezerOrSkip();
    kafka = new EnforcerFixture(env);
    stateFile = dir.resolve("node-a.json");
  }

  @AfterEach
  void tearDown() throws Exception {
    try {
      if (kafka != null) {
        kafka.close(); // enforcers first: nothing writes to the groups while they are removed
      }
    } finally {
      if (sandbox != null) {
        sandbox.close();
      }
    }
  }

  @Test
  void aCpuDecisionIsWrittenExactlyAndAnsweredWithWhatTheKernelReadsBack() throws Exception {
    TaskId job = sandbox.group("job-1");
    PrometheusMeterRegistry meters = OpsServer.newRegistry("enforcer");
    Enforcer enforcer = kafka.start(sandbox.config(), stateFile, false, Duration.ofSeconds(5), meters);

    RecordMetadata decision = kafka.cpu("job-1", true, 512, 50_000);
    EnforcementResult applied = kafka.awaitAnswer(decision);
    assertThat(applied.getStatus()).isEqualTo(EnforcementStatus.APPLIED);
    assertThat(applied.getKind()).isEqualTo(EnforcementKind.CPU);
    assertThat(applied.getNode()).isEqualTo(NODE);
    assertThat(applied.getTask()).isEqualTo("job-1");
    assertThat(applied.getReadShares()).isEqualTo(512);
    assertThat(applied.getReadQuotaUs()).isEqualTo(50_000);
    assertThat(applied.getReadPeriodUs()).isEqualTo(100_000);
    assertThat(applied.getDetail()).contains("cpu.shares 1024 -> 512", "cpu.cfs_quota_us -1 -> 50000");
    assertThat(sandbox.read("cpu", job, "cpu.shares")).isEqualTo("512");
    assertThat(sandbox.read("cpu", job, "cpu.cfs_quota_us")).isEqualTo("50000");
    assertThat(sandbox.read("cpu", job, "cpu.cfs_period_us")).isEqualTo("100000");

    RecordMetadata same = kafka.cpu("job-1", true, 512, 50_000);
    assertThat(kafka.awaitAnswer(same).getStatus()).isEqualTo(EnforcementStatus.UNCHANGED);

    // apply=false: nothing written and nothing to answer; the marker after it proves it was read.
    RecordMetadata observedOnly = kafka.cpu("job-1", false, 2, 10_000);
    RecordMetadata marker = kafka.cpu("job-1", true, 600, -1);
    assertThat(kafka.awaitAnswer(marker).getStatus()).isEqualTo(EnforcementStatus.APPLIED);
    assertThat(kafka.resultsUntil("all results so far", seen -> true)).noneMatch(answers(observedOnly));
    assertThat(sandbox.read("cpu", job, "cpu.shares")).isEqualTo("600");
    assertThat(sandbox.read("cpu", job, "cpu.cfs_quota_us")).isEqualTo("-1");

    try (OpsServer ops = OpsServer.start("127.0.0.1", 0, meters, enforcer::health)) {
      HttpResponse<String> metrics = get(ops, "/metrics");
      assertThat(metrics.body())
          .contains("quotaflow_enforcer_results_total{component=\"enforcer\",kind=\"CPU\",status=\"APPLIED\"} 2.0")
          .contains("quotaflow_enforcer_results_total{component=\"enforcer\",kind=\"CPU\",status=\"UNCHANGED\"} 1.0")
          .contains("quotaflow_enforcer_results_total{component=\"enforcer\",kind=\"CPU\",status=\"FAILED\"} 0.0")
          .contains("quotaflow_enforcer_results_total{component=\"enforcer\",kind=\"CPU\",status=\"REJECTED\"} 0.0")
          .contains("quotaflow_enforcer_apply_latency_seconds_count{component=\"enforcer\",kind=\"CPU\"} 3")
          .contains("quotaflow_enforcer_skipped_total{component=\"enforcer\",reason=\"not_applied\"} 1.0")
          .contains("quotaflow_enforcer_mode{component=\"enforcer\",mode=\"ON\"} 1.0")
          .contains("quotaflow_enforcer_mode{component=\"enforcer\",mode=\"OFF\"} 0.0");
      HttpResponse<String> health = get(ops, "/health");
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.body()).contains("\"ready\":true", "enforcement ON", "1 tasks");
    }
  }

  @Test
  void aQuotaAboveTheParentsIsClampedToItAndTheResultSaysSo() throws Exception {
    TaskId job = sandbox.group("job-1");
    Path parentQuota = sandbox.parentDir("cpu").resolve("cpu.cfs_quota_us");
    // Our own test parent gets 1 core (100 ms per 100 ms); v1 refuses a child quota above it.
    Files.writeString(parentQuota, "100000");
    try {
      kafka.start(sandbox.config(), stateFile);

      EnforcementResult clamped = kafka.awaitAnswer(kafka.cpu("job-1", true, 4000, 412_000));
      assertThat(clamped.getStatus()).isEqualTo(EnforcementStatus.APPLIED);
      assertThat(clamped.getReadQuotaUs()).isEqualTo(100_000);
      assertThat(clamped.getDetail()).contains("cpu.cfs_quota_us -1 -> 100000",
          "quota clamped to the parent's: asked 412000 us, wrote 100000 us per 100000 us period");
      assertThat(sandbox.read("cpu", job, "cpu.cfs_quota_us")).isEqualTo("100000");

      // The same decision again: nothing to write, and the answer still says the quota is not the one asked for.
      EnforcementResult again = kafka.awaitAnswer(kafka.cpu("job-1", true, 4000, 412_000));
      assertThat(again.getStatus()).isEqualTo(EnforcementStatus.UNCHANGED);
      assertThat(again.getDetail()).contains("quota clamped to the parent's: asked 412000 us, wrote 100000 us");

      // Within the parent's quota nothing is clamped and the answer says nothing of it.
      EnforcementResult within = kafka.awaitAnswer(kafka.cpu("job-1", true, 4000, 50_000));
      assertThat(within.getStatus()).isEqualTo(EnforcementStatus.APPLIED);
      assertThat(within.getReadQuotaUs()).isEqualTo(50_000);
      assertThat(within.getDetail()).doesNotContain("clamped");
    } finally {
      Files.writeString(parentQuota, "-1"); // unlimited again (the sandbox removes the parent afterwards)
    }
  }

  @Test
  void theControlDelayCountsOnlyDecisionsAppliedOnReceiptAndRunsFromTheirRecordTimestamp() throws Exception {
    TaskId job = sandbox.group("job-1");
    TaskId sleeper = sandbox.group("sleeper");
    sandbox.spawnShell(sleeper, "exec sleep 600");
    RecordMetadata caughtUp = kafka.cpu("job-1", true, 300, -1);
    PrometheusMeterRegistry meters = OpsServer.newRegistry("enforcer");
    kafka.start(sandbox.config(), stateFile, false, Duration.ofSeconds(5), meters);
    assertThat(kafka.awaitAnswer(caughtUp).getStatus()).isEqualTo(EnforcementStatus.APPLIED);
    assertThat(ControlDelay.of(meters, EnforcementKind.CPU)).as("applied during the catch-up at start").isEmpty();

    assertThat(kafka.awaitAnswer(kafka.cpu("job-1", true, 512, -1)).getStatus()).isEqualTo(EnforcementStatus.APPLIED);
    assertThat(kafka.awaitAnswer(kafka.cpu("job-1", true, 512, -1)).getStatus()).isEqualTo(EnforcementStatus.UNCHANGED);
    assertThat(ControlDelay.of(meters, EnforcementKind.CPU).orElseThrow().count()).isEqualTo(1);

    // The decision carries its sample's time, 1.5 s ago: the delay runs from then, not from its receipt.
    long sampleMs = System.currentTimeMillis() - 1_500;
    RecordMetadata freeze = kafka.freeze("sleeper", FreezeAction.FREEZE, 600_000L, sampleMs);
    assertThat(kafka.awaitAnswer(freeze).getStatus()).isEqualTo(EnforcementStatus.APPLIED);
    long answeredMs = System.currentTimeMillis();
    Timer freezes = meters.get(ControlDelay.METER).tag("kind", "FREEZE").timer();
    assertThat(freezes.count()).isEqualTo(1);
    assertThat(freezes.totalTime(TimeUnit.MILLISECONDS)).isBetween(1_500.0, (double) (answeredMs - sampleMs));
    ControlDelay freezeDelay = ControlDelay.of(meters, EnforcementKind.FREEZE).orElseThrow();
    assertThat(freezeDelay.p50Ms()).isBetween(1_500L, 3_000L);
    assertThat(freezeDelay.p99Ms()).isBetween(freezeDelay.p50Ms(), 3_000L);

    // Previewed under DRY_RUN, then written by the reconcile when ON returns: the wait in between
    // is the operator's, not a control delay, so neither counts.
    kafka.enforcement(Enforcement.DRY_RUN);
    RecordMetadata previewed = kafka.cpu("job-1", true, 700, -1);
    assertThat(kafka.awaitAnswer(previewed).getStatus()).isEqualTo(EnforcementStatus.DRY_RUN);
    kafka.enforcement(Enforcement.ON);
    kafka.resultsUntil("the previewed decision written by the reconcile",
        seen -> seen.stream().anyMatch(answers(previewed).and(r -> r.getStatus() == EnforcementStatus.APPLIED)));
    assertThat(sandbox.read("cpu", job, "cpu.shares")).isEqualTo("700");
    assertThat(ControlDelay.of(meters, EnforcementKind.CPU).orElseThrow().count()).isEqualTo(1);
    assertThat(ControlDelay.of(meters, EnforcementKind.FREEZE).orElseThrow().count()).as("the renewal by the reconcile")
        .isEqualTo(1);

    assertThat(meters.scrape())
        .contains("quotaflow_enforcer_control_delay_seconds_count{component=\"enforcer\",kind=\"CPU\"} 1")
        .contains("quotaflow_enforcer_control_delay_seconds_bucket{component=\"enforcer\",kind=\"FREEZE\",le=\"1.0\"} 0")
        .contains("quotaflow_enforcer_control_delay_seconds_bucket{component=\"enforcer\",kind=\"FREEZE\",le=\"30.0\"} 1")
        // The task's gauges follow its latest decision (700 shares: 0.7 cores soft), one task at a time.
        .contains("quotaflow_enforcer_task_limit_cpu{component=\"enforcer\",limit=\"soft\",task=\"job-1\"} 0.7");
  }

  private static HttpResponse<String> get(OpsServer ops, String path) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ops.port() + path)).build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aRecordThatDoesNotDecodeIsRejectedAndTheNextDecisionApplied() throws Exception {
    TaskId job = sandbox.group("job-1");
    kafka.start(sandbox.config(), stateFile);

    EnforcementResult rejected = kafka.awaitAnswer(kafka.garbage("job-1"));
    assertThat(rejected.getStatus()).isEqualTo(EnforcementStatus.REJECTED);
    assertThat(rejected.getDetail()).contains("does not decode");
    assertThat(kafka.awaitAnswer(kafka.cpu("job-1", true, 512, -1)).getStatus()).isEqualTo(EnforcementStatus.APPLIED);
    assertThat(sandbox.read("cpu", job, "cpu.shares")).isEqualTo("512");
  }

  @Test
  void itWaitsForTheTopicsAndStartsOnceTheyExist(KafkaEnv env) throws Exception {
    TaskId job = sandbox.group("job-1");
    try (EnforcerFixture late = new EnforcerFixture(env, false)) {
      Enforcer enforcer = late.startWithoutWaiting(sandbox.config(), dir.resolve("late.json"), false,
          Duration.ofSeconds(5), null);
      assertThat(enforcer.health().ready()).isFalse();
      assertThat(enforcer.health().live()).isTrue();
      assertThat(enforcer.health().detail()).isEqualTo("WAITING_FOR_TOPICS");

      late.createTopics();
      EnforcerFixture.awaitReady(enforcer);
      assertThat(late.awaitAnswer(late.cpu("job-1", true, 512, -1)).getStatus()).isEqualTo(EnforcementStatus.APPLIED);
      assertThat(sandbox.read("cpu", job, "cpu.shares")).isEqualTo("512");
    }
  }

  @Test
  void dryRunWritesNothingAndSaysWhatItWouldWrite() throws Exception {
    TaskId job = sandbox.group("job-1");
    kafka.enforcement(Enforcement.DRY_RUN);
    kafka.start(sandbox.config(), stateFile);

    EnforcementResult result = kafka.awaitAnswer(kafka.cpu("job-1", true, 512, 50_000));
    assertThat(result.getStatus()).isEqualTo(EnforcementStatus.DRY_RUN);
    assertThat(result.getDetail()).contains("nothing written (enforcement DRY_RUN)", "would write shares 512");
    assertThat(result.getReadShares()).as("what the group has").isEqualTo(1024);
    assertThat(sandbox.read("cpu", job, "cpu.shares")).isEqualTo("1024");
    assertThat(sandbox.read("cpu", job, "cpu.cfs_quota_us")).isEqualTo("-1");
    assertThat(stateFile).as("nothing to restore, nothing saved").doesNotExist();
  }

  @Test
  void theDryRunFlagWritesNothingEvenWhenTheClusterSaysOn() throws Exception {
    TaskId job = sandbox.group("job-1");
    kafka.enforcement(Enforcement.ON);
    kafka.start(sandbox.config(), stateFile, true, Duration.ofSeconds(5), null);

    EnforcementResult result = kafka.awaitAnswer(kafka.cpu("job-1", true, 512, 50_000));
    assertThat(result.getStatus()).isEqualTo(EnforcementStatus.DRY_RUN);
    assertThat(result.getDetail()).contains("--dry-run");
    assertThat(sandbox.read("cpu", job, "cpu.shares")).isEqualTo("1024");
  }

  @Test
  void offRestoresTheValuesFromBeforeQuotaflowFirstWroteAndOnReappliesTheLatestDecision() throws Exception {
    TaskId job = sandbox.group("job-1");
    // Not the kernel's defaults: the restore must put back what the group had, not what groups start with.
    sandbox.cgroups().applyCpu(job, new CgroupCpuWrite(700, 68, 30_000, 100_000));
    kafka.start(sandbox.config(), stateFile);

    assertThat(kafka.awaitAnswer(kafka.cpu("job-1", true, 512, 50_000)).getStatus()).isEqualTo(EnforcementStatus.APPLIED);
    RecordMetadata latest = kafka.cpu("job-1", true, 256, -1);
    assertThat(kafka.awaitAnswer(latest).getStatus()).isEqualTo(EnforcementStatus.APPLIED);
    assertThat(sandbox.read("cpu", job, "cpu.shares")).isEqualTo("256");
    assertThat(Files.readString(stateFile)).contains("\"job-1\"", "\"shares\" : 700", "\"quota_us\" : 30000");

    RecordMetadata off = kafka.enforcement(Enforcement.OFF);
    EnforcementResult restored = kafka.awaitAnswer(off);
    assertThat(restored.getStatus()).isEqualTo(EnforcementStatus.APPLIED);
    assertThat(restored.getTask()).isEqualTo("job-1");
    assertThat(restored.getDetail()).contains("enforcement OFF: restored");
    assertThat(restored.getReadShares()).isEqualTo(700);
    assertThat(sandbox.read("cpu", job, "cpu.shares")).isEqualTo("700");
    assertThat(sandbox.read("cpu", job, "cpu.cfs_quota_us")).isEqualTo("30000");
    assertThat(Files.readString(stateFile)).as("restored: nothing left to undo").doesNotContain("job-1");

    RecordMetadata whileOff = kafka.cpu("job-1", true, 300, -1);
    assertThat(kafka.awaitAnswer(whileOff).getStatus()).isEqualTo(EnforcementStatus.DRY_RUN);
    assertThat(sandbox.read("cpu", job, "cpu.shares")).isEqualTo("700");

    kafka.enforcement(Enforcement.ON);
    kafka.resultsUntil("the latest decision applied again after ON",
        seen -> seen.stream().anyMatch(answers(whileOff).and(r -> r.getStatus() == EnforcementStatus.APPLIED)));
    assertThat(sandbox.read("cpu", job, "cpu.shares")).isEqualTo("300");
  }

  @Test
  void originalValuesSurviveARestartOfTheEnforcer() throws Exception {
    TaskId job = sandbox.group("job-1");
    Enforcer first = kafka.start(sandbox.config(), stateFile);
    assertThat(kafka.awaitAnswer(kafka.cpu("job-1", true, 512, 50_000)).getStatus()).isEqualTo(EnforcementStatus.APPLIED);
    first.close();

    kafka.start(sandbox.config(), stateFile);
    kafka.enforcement(Enforcement.OFF);
    kafka.awaitResult("the restore after the restart", about("job-1").and(r -> r.getDetail().contains("restored")));
    assertThat(sandbox.read("cpu", job, "cpu.shares")).isEqualTo("1024");
    assertThat(sandbox.read("cpu", job, "cpu.cfs_quota_us")).isEqualTo("-1");
  }

  @Test
  void onStartOnlyTheLatestDecisionOfEachTaskIsApplied() throws Exception {
    TaskId job = sandbox.group("job-1");
    sandbox.group("job-2");
    RecordMetadata older = kafka.cpu("job-1", true, 300, -1);
    RecordMetadata latest = kafka.cpu("job-1", true, 400, 80_000);
    RecordMetadata other = kafka.cpu("job-2", true, 900, -1);
    kafka.start(sandbox.config(), stateFile);

    List<EnforcementResult> results = kafka.resultsUntil("answers to the latest decisions",
        seen -> seen.stream().anyMatch(answers(latest)) && seen.stream().anyMatch(answers(other)));
    assertThat(results).noneMatch(answers(older));
    assertThat(results.stream().filter(answers(latest)).findFirst().orElseThrow().getReadShares()).isEqualTo(400);
    assertThat(sandbox.read("cpu", job, "cpu.shares")).isEqualTo("400");
    assertThat(sandbox.read("cpu", job, "cpu.cfs_quota_us")).isEqualTo("80000");
  }

  @Test
  void anotherNodesDecisionIsIgnoredEvenInTheNodesOwnPartition() throws Exception {
    TaskId job = sandbox.group("job-1");
    sandbox.group("marker");
    kafka.start(sandbox.config(), stateFile);

    String other = EnforcerFixture.otherNodeInTheSamePartition();
    RecordMetadata foreign = kafka.cpu(other + "/job-1", EnforcerFixture.cpuDecision(other, "job-1", true, 3000, 10_000));
    RecordMetadata marker = kafka.cpu("marker", true, 800, -1);
    assertThat(foreign.partition()).isEqualTo(marker.partition());
    kafka.awaitAnswer(marker);
    assertThat(kafka.resultsUntil("all results so far", seen -> true)).noneMatch(answers(foreign))
        .noneMatch(r -> r.getNode().equals(other));
    assertThat(sandbox.read("cpu", job, "cpu.shares")).isEqualTo("1024");
  }

  @Test
  void pathTraversalAndDotNamesAreRejectedAndNothingIsWritten() throws Exception {
    Path parent = sandbox.parentDir("cpu");
    String parentShares = Files.readString(parent.resolve("cpu.shares"));
    String parentQuota = Files.readString(parent.resolve("cpu.cfs_quota_us"));
    kafka.start(sandbox.config(), stateFile);

    for (String task : List.of("..", "../x", ".x")) {
      RecordMetadata refused = kafka.cpu(NODE + "/" + task, EnforcerFixture.cpuDecision(NODE, task, true, 2, 1_000));
      EnforcementResult result = kafka.awaitAnswer(refused);
      assertThat(result.getStatus()).as(task).isEqualTo(EnforcementStatus.REJECTED);
      assertThat(result.getTask()).isEqualTo(task);
      assertThat(result.getDetail()).contains("not a single safe path component");
      assertThat(result.getReadShares()).isNull();
    }
    assertThat(Files.readString(parent.resolve("cpu.shares"))).isEqualTo(parentShares);
    assertThat(Files.readString(parent.resolve("cpu.cfs_quota_us"))).isEqualTo(parentQuota);
    assertThat(parent.resolveSibling("x")).doesNotExist();
    assertThat(stateFile).doesNotExist();
  }

  @Test
  void aMissingGroupIsReportedOnceAndAppliedWhenItAppearsAndANewDecisionArrives() throws Exception {
    sandbox.group("witness");
    kafka.start(sandbox.config(), stateFile);

    RecordMetadata first = kafka.cpu("ghost", true, 512, -1);
    EnforcementResult missing = kafka.awaitAnswer(first);
    assertThat(missing.getStatus()).isEqualTo(EnforcementStatus.REJECTED);
    assertThat(missing.getDetail()).contains("no cgroup ghost");
    RecordMetadata witness = kafka.cpu("witness", true, 700, -1);
    kafka.awaitAnswer(witness);

    // DRY_RUN then ON reconciles every task again; the witness (after "ghost" in task order) is
    // answered a second time once the ghost decision has been looked at again.
    kafka.enforcement(Enforcement.DRY_RUN);
    kafka.enforcement(Enforcement.ON);
    List<EnforcementResult> results = kafka.resultsUntil("the witness answered again by the reconcile",
        seen -> seen.stream().filter(answers(witness)).count() >= 2);
    assertThat(results.stream().filter(about("ghost"))).as("reported once, not retried").hasSize(1);

    TaskId ghost = sandbox.group("ghost");
    RecordMetadata second = kafka.cpu("ghost", true, 512, -1);
    assertThat(kafka.awaitAnswer(second).getStatus()).isEqualTo(EnforcementStatus.APPLIED);
    assertThat(sandbox.read("cpu", ghost, "cpu.shares")).isEqualTo("512");
  }

  @Test
  void aFrozenTaskIsThawedByTheEnforcerWhenItsLeaseRunsOut() throws Exception {
    TaskId sleeper = sandbox.group("sleeper");
    sandbox.spawnShell(sleeper, "exec sleep 600");
    kafka.start(sandbox.config(), stateFile);

    RecordMetadata freeze = kafka.freeze("sleeper", FreezeAction.FREEZE, 1_500L);
    EnforcementResult frozen = kafka.awaitAnswer(freeze);
    assertThat(frozen.getStatus()).isEqualTo(EnforcementStatus.APPLIED);
    assertThat(frozen.getKind()).isEqualTo(EnforcementKind.FREEZE);
    assertThat(frozen.getReadFrozen()).isTrue();
    assertThat(frozen.getDetail()).contains("lease until");
    assertThat(Files.readString(stateFile)).contains("\"frozen_by_us\"", "\"sleeper\"");
    // The result is published after the kernel reported FROZEN; read the kernel's file directly.
    assertThat(sandbox.read("freezer", sleeper, "freezer.state")).isEqualTo("FROZEN");

    EnforcementResult expired = kafka.awaitResult("the lease expiry",
        about("sleeper").and(r -> r.getStatus() == EnforcementStatus.LEASE_EXPIRED));
    assertThat(expired.getReadFrozen()).isFalse();
    assertThat(expired.getDecisionOffset()).as("answers the FREEZE whose lease ran out").isEqualTo(freeze.offset());
    assertThat(sandbox.read("freezer", sleeper, "freezer.state")).isEqualTo("THAWED");
    assertThat(Files.readString(stateFile)).doesNotContain("\"sleeper\"");
  }

  @Test
  void offThawsAtOnceWhatItFrozeAndFreezesNothingNew() throws Exception {
    TaskId sleeper = sandbox.group("sleeper");
    sandbox.spawnShell(sleeper, "exec sleep 600");
    kafka.start(sandbox.config(), stateFile);
    assertThat(kafka.awaitAnswer(kafka.freeze("sleeper", FreezeAction.FREEZE, 600_000L)).getStatus())
        .isEqualTo(EnforcementStatus.APPLIED);
    assertThat(sandbox.read("freezer", sleeper, "freezer.state")).isEqualTo("FROZEN");

    RecordMetadata off = kafka.enforcement(Enforcement.OFF);
    EnforcementResult thawed = kafka.awaitAnswer(off);
    assertThat(thawed.getKind()).isEqualTo(EnforcementKind.FREEZE);
    assertThat(thawed.getStatus()).isEqualTo(EnforcementStatus.APPLIED);
    assertThat(thawed.getDetail()).contains("enforcement OFF: thawed");
    assertThat(thawed.getReadFrozen()).isFalse();
    assertThat(sandbox.read("freezer", sleeper, "freezer.state")).isEqualTo("THAWED");

    EnforcementResult notFrozen = kafka.awaitAnswer(kafka.freeze("sleeper", FreezeAction.FREEZE, 600_000L));
    assertThat(notFrozen.getStatus()).isEqualTo(EnforcementStatus.DRY_RUN);
    assertThat(notFrozen.getDetail()).contains("nothing written (enforcement OFF): would freeze it");
    assertThat(sandbox.read("freezer", sleeper, "freezer.state")).isEqualTo("THAWED");
  }

  @Test
  void itNeverThawsAGroupItDidNotFreeze() throws Exception {
    TaskId foreign = sandbox.group("foreign");
    TaskId own = sandbox.group("own");
    sandbox.cgroups().freeze(foreign, Duration.ofSeconds(10)); // the job system's own pause
    kafka.start(sandbox.config(), stateFile, false, Duration.ZERO, null);

    EnforcementResult thaw = kafka.awaitAnswer(kafka.freeze("foreign", FreezeAction.THAW, null));
    assertThat(thaw.getStatus()).isEqualTo(EnforcementStatus.UNCHANGED);
    assertThat(thaw.getDetail()).contains("by someone else");
    EnforcementResult freeze = kafka.awaitAnswer(kafka.freeze("foreign", FreezeAction.FREEZE, 300L));
    assertThat(freeze.getStatus()).isEqualTo(EnforcementStatus.UNCHANGED);

    // A group it did freeze, with the same short lease: expiries are thawed earliest first, so once
    // this one is thawed a lease on "foreign" would have been too.
    kafka.freeze("own", FreezeAction.FREEZE, 300L);
    kafka.awaitResult("own's lease expiry", about("own").and(r -> r.getStatus() == EnforcementStatus.LEASE_EXPIRED));
    assertThat(sandbox.read("freezer", own, "freezer.state")).isEqualTo("THAWED");
    assertThat(sandbox.read("freezer", foreign, "freezer.state")).isEqualTo("FROZEN");
    assertThat(kafka.resultsUntil("all results so far", seen -> true))
        .noneMatch(about("foreign").and(r -> r.getStatus() == EnforcementStatus.LEASE_EXPIRED));
  }

  @Test
  void onStartAFreezeOlderThanItsLeaseIsIgnoredAndAYoungerOneApplied() throws Exception {
    TaskId stale = sandbox.group("stale");
    TaskId fresh = sandbox.group("fresh");
    long now = System.currentTimeMillis();
    RecordMetadata staleFreeze = kafka.freeze("stale", FreezeAction.FREEZE, 60_000L, now - 600_000);
    RecordMetadata freshFreeze = kafka.freeze("fresh", FreezeAction.FREEZE, 600_000L, now);
    kafka.start(sandbox.config(), stateFile);

    // Both are in the node's partition, the stale one first: once the fresh one is answered, the
    // stale one has been looked at.
    assertThat(kafka.awaitAnswer(freshFreeze).getStatus()).isEqualTo(EnforcementStatus.APPLIED);
    assertThat(kafka.resultsUntil("all results so far", seen -> true)).noneMatch(answers(staleFreeze));
    assertThat(sandbox.read("freezer", stale, "freezer.state")).isEqualTo("THAWED");
    assertThat(sandbox.read("freezer", fresh, "freezer.state")).isEqualTo("FROZEN");
  }

  @Test
  void aWithdrawnFreezeIsLifted() throws Exception {
    TaskId task = sandbox.group("paused");
    kafka.start(sandbox.config(), stateFile, false, Duration.ZERO, null);
    kafka.awaitAnswer(kafka.freeze("paused", FreezeAction.FREEZE, 600_000L));
    assertThat(sandbox.read("freezer", task, "freezer.state")).isEqualTo("FROZEN");

    kafka.withdrawFreeze("paused");
    EnforcementResult lifted = kafka.awaitResult("the withdrawn freeze lifted",
        about("paused").and(r -> r.getStatus() == EnforcementStatus.LEASE_EXPIRED));
    assertThat(lifted.getReadFrozen()).isFalse();
    assertThat(sandbox.read("freezer", task, "freezer.state")).isEqualTo("THAWED");
  }
}
