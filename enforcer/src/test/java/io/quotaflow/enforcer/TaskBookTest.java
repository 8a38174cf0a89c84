package io.quotaflow.enforcer;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cgroups.CgroupCpuWrite;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.schemas.avro.EnforcementKind;
import org.junit.jupiter.api.Test;

class TaskBookTest {

  static final TaskId TASK = TaskId.of("ghost");
  static final DecisionRef FIRST = new DecisionRef("quotaflow.cpu-decisions", 1, 10, 0);
  static final DecisionRef SECOND = new DecisionRef("quotaflow.cpu-decisions", 1, 11, 0);

  @Test
  void aMissingGroupIsReportedOncePerDecision() {
    TaskBook book = new TaskBook();
    assertThat(book.firstMissingReport(EnforcementKind.CPU, TASK, FIRST)).isTrue();
    assertThat(book.firstMissingReport(EnforcementKind.CPU, TASK, FIRST)).as("reconcile of the same decision").isFalse();
    assertThat(book.firstMissingReport(EnforcementKind.CPU, TASK, SECOND)).as("a new decision").isTrue();
    assertThat(book.firstMissingReport(EnforcementKind.FREEZE, TASK, FIRST)).as("kinds are separate").isTrue();
  }

  @Test
  void aGroupThatWasFoundAndVanishedAgainIsNews() {
    TaskBook book = new TaskBook();
    assertThat(book.firstMissingReport(EnforcementKind.CPU, TASK, FIRST)).isTrue();
    book.groupFound(EnforcementKind.CPU, TASK);
    assertThat(book.firstMissingReport(EnforcementKind.CPU, TASK, FIRST)).isTrue();
  }

  @Test
  void theLatestDecisionPerTaskIsKeptAndTombstonesRemoveIt() {
    TaskBook book = new TaskBook();
    CgroupCpuWrite settings = new CgroupCpuWrite(2, 1, -1, 100_000);
    book.put(new CpuIntent(FIRST, TASK, true, settings, new CpuLimits(2, 1)));
    CpuIntent latest = new CpuIntent(SECOND, TASK, false, settings, new CpuLimits(3, 1.5));
    book.put(latest);
    book.put(new FreezeIntent(FIRST, TaskId.of("other"), false, 0));
    assertThat(book.cpuIntents()).containsExactly(latest);
    assertThat(book.taskCount()).isEqualTo(2);
    assertThat(book.cpuLimits()).as("the latest decision's limits; a freeze-only task has none")
        .isEqualTo(java.util.Map.of(TASK, new CpuLimits(3, 1.5)));
    book.withdrawCpu(TASK);
    assertThat(book.cpuIntents()).isEmpty();
    assertThat(book.cpuLimits()).isEmpty();
    assertThat(book.taskCount()).isEqualTo(1);
  }
}
