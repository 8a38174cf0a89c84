package io.quotaflow.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cgroups.CgroupSandbox;
import io.quotaflow.cgroups.Sandboxes;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.cli.NodeTopicTail;
import io.quotaflow.cli.OperatorTool;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.testharness.ChildJvm;
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
import java.util.Locale;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19 item 1c: {@code quotaflow enforcer} SIGKILLed, its node's decisions and groups changed
 * while it is dead, then started again on the same state file: it reconciles every task from the
 * compacted decision topics, and its enforcement-results say what the kernel reads back. The
 * enforcer is its own JVM; the groups are real v1 groups; the broker is the shared test broker.
 */
@WithKafka
class EnforcerKillTest {

  private static final String NODE = "kill-node";
  private static final int PARTITIONS = 3;
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  /** Longer than the test: no lease runs out in it. */
  private static final long LONG_LEASE_MS = 600_000;

  @TempDir Path dir;
  CgroupSandbox sandbox;
  CliProcesses processes;
  NodeDecisions decisions;
  NodeTopicTail<EnforcementResult> results;

  @BeforeEach
  void setUp() throws Exception {
    sandbox = Sandboxes.openV1WithFreezerOrSkip();
    processes = new CliProcesses(dir.resolve("logs"));
  }

  @AfterEach
  void tearDown() throws Exception {
    try {
      if (processes != null) {
        processes.close(); // the enforcer first: nothing writes to the groups while they are removed
      }
      if (results != null) {
        results.close();
      }
      if (decisions != null) {
        decisions.close();
      }
    } finally {
      if (sandbox != null) {
        sandbox.close();
      }
    }
  }

  @Test
  void restartedAfterSigkillItReconcilesEveryTaskToItsLatestDecision(KafkaEnv kafka) throws Exception {
    TaskId steady = sandbox.group("steady");
    TaskId redecided = sandbox.group("redecided");
    TaskId disturbed = sandbox.group("disturbed");
    TaskId frozenLate = sandbox.group("frozen-late");
    TaskId thawedLate = sandbox.group("thawed-late");
    sandbox.idle(frozenLate);
    sandbox.idle(thawedLate);
    String prefix = TestTopics.uniquePrefix("enforcer-kill");
    new OperatorTool(kafka, prefix, PARTITIONS).withTopics().run("cluster", "set", "enforcement=ON");
    Topics topics = Topics.create(new Topics.Settings(prefix, PARTITIONS, true), kafka.registryClient());
    decisions = new NodeDecisions(kafka, topics, NODE);
    results = new NodeTopicTail<>(kafka, topics.enforcementResults(), NODE);
    decisions.cpu("steady", 700, -1);
    decisions.cpu("redecided", 500, -1);
    decisions.cpu("disturbed", 600, 40_000);
    decisions.freeze("thawed-late", FreezeAction.FREEZE, LONG_LEASE_MS);
    List<String> args = new ArrayList<>(List.of("enforcer", "--state-file", dir.resolve("state.json").toString(),
        "--http-host", "127.0.0.1", "--http-port", "0"));
    args.addAll(CliProcesses.connection(kafka, prefix));
    args.addAll(CliProcesses.node(NODE, sandbox));

    ChildJvm first = processes.start("enforcer", args);
    CliProcesses.opsPort(first);
    awaitKernel(first, "the first decisions in the groups", () -> cpu(steady).equals("700 -1")
        && cpu(redecided).equals("500 -1") && cpu(disturbed).equals("600 40000") && frozen(thawedLate));
    // Its results published too: whatever it writes to its state file, it wrote before these.
    KafkaWait.until(PATIENCE, "results for the first decisions", () -> List.of(steady, redecided, disturbed, thawedLate)
        .stream().allMatch(task -> !results.values(key(task)).isEmpty()));

    first.kill();
    assertThat(frozen(thawedLate)).as("a SIGKILLed enforcer thaws nothing").isTrue();
    // While it is dead: a new decision, a hand-written value, a new freeze and a thaw of its own freeze.
    decisions.cpu("redecided", 300, 50_000);
    write(disturbed, "cpu.shares", "5000");
    write(disturbed, "cpu.cfs_quota_us", "-1");
    decisions.freeze("frozen-late", FreezeAction.FREEZE, LONG_LEASE_MS);
    decisions.freeze("thawed-late", FreezeAction.THAW, null);
    int resultsBeforeRestart = results.recordsToEnd().size();
    assertThat(cpu(disturbed)).isEqualTo("5000 -1");
    assertThat(frozen(frozenLate)).isFalse();

    long restarted = System.nanoTime();
    ChildJvm second = processes.start("enforcer", args);
    awaitKernel(second, "every group to hold its latest decision", () -> cpu(steady).equals("700 -1")
        && cpu(redecided).equals("300 50000") && cpu(disturbed).equals("600 40000") && frozen(frozenLate)
        && !frozen(thawedLate));
    long reconcileMs = msSince(restarted);

    KafkaWait.until(PATIENCE, "a result for every task after the restart", () -> List.of(steady, redecided, disturbed,
        frozenLate, thawedLate).stream().allMatch(task -> resultAfter(resultsBeforeRestart, task, r -> true) != null));
    assertThat(resultAfter(resultsBeforeRestart, redecided, r -> r.getKind() == EnforcementKind.CPU)).satisfies(r -> {
      assertThat(r.getStatus()).isEqualTo(EnforcementStatus.APPLIED);
      assertThat(r.getReadShares()).isEqualTo(300);
      assertThat(r.getReadQuotaUs()).isEqualTo(50_000);
    });
    assertThat(resultAfter(resultsBeforeRestart, disturbed, r -> r.getKind() == EnforcementKind.CPU)).satisfies(r -> {
      assertThat(r.getStatus()).isEqualTo(EnforcementStatus.APPLIED);
      assertThat(r.getReadShares()).isEqualTo(600);
      assertThat(r.getReadQuotaUs()).isEqualTo(40_000);
      assertThat(r.getDetail()).contains("cpu.shares 5000 -> 600");
    });
    assertThat(resultAfter(resultsBeforeRestart, frozenLate, r -> r.getKind() == EnforcementKind.FREEZE)).satisfies(r -> {
      assertThat(r.getStatus()).isEqualTo(EnforcementStatus.APPLIED);
      assertThat(r.getReadFrozen()).isTrue();
    });
    // Thawed only because its state file, written before the SIGKILL, says it froze the group itself.
    assertThat(resultAfter(resultsBeforeRestart, thawedLate, r -> r.getKind() == EnforcementKind.FREEZE)).satisfies(r -> {
      assertThat(r.getStatus()).isEqualTo(EnforcementStatus.APPLIED);
      assertThat(r.getReadFrozen()).isFalse();
    });
    // Looked at again too, though nothing changed for it.
    assertThat(resultAfter(resultsBeforeRestart, steady, r -> true)).satisfies(r -> {
      assertThat(r.getStatus()).isEqualTo(EnforcementStatus.UNCHANGED);
      assertThat(r.getReadShares()).isEqualTo(700);
    });
    List<EnforcementResult> after = results.records().stream().skip(resultsBeforeRestart)
        .map(ConsumerRecord::value).toList();
    assertThat(after).as("results after the restart").noneMatch(r -> r.getStatus() == EnforcementStatus.FAILED
        || r.getStatus() == EnforcementStatus.REJECTED);
    System.out.printf(Locale.ROOT, "enforcer SIGKILL: restarted process → every group at its latest decision in %d ms"
        + " (JVM start included); %d results after the restart%n", reconcileMs, after.size());
  }

  /** The first result for {@code task} after the first {@code skip} records that matches. */
  private EnforcementResult resultAfter(int skip, TaskId task, Predicate<EnforcementResult> matching) {
    return results.records().stream().skip(skip).filter(r -> key(task).equals(r.key()) && r.value() != null)
        .map(ConsumerRecord::value).filter(matching).findFirst().orElse(null);
  }

  private void awaitKernel(ChildJvm enforcer, String what, java.util.function.BooleanSupplier condition) {
    try {
      KafkaWait.until(PATIENCE, what, condition);
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\n" + enforcer.tail(), e);
    }
  }

  /** {@code cpu.shares} and {@code cpu.cfs_quota_us} as the kernel reads them. */
  private String cpu(TaskId task) {
    return read("cpu", task, "cpu.shares") + " " + read("cpu", task, "cpu.cfs_quota_us");
  }

  private boolean frozen(TaskId task) {
    return read("freezer", task, "freezer.state").equals("FROZEN");
  }

  private String read(String mount, TaskId task, String file) {
    try {
      return sandbox.read(mount, task, file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void write(TaskId task, String file, String value) throws IOException {
    Files.writeString(sandbox.parentDir("cpu").resolve(task.value()).resolve(file), value);
  }

  private static String key(TaskId task) {
    return NODE + "/" + task.value();
  }

  private static long msSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }
}
