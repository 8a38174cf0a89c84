package io.quotaflow.enforcer;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cgroups.CgroupCpuWrite;
import io.quotaflow.cgroups.TaskId;
import org.junit.jupiter.api.Test;

class DecisionPlannerTest {

  static final TaskId TASK = TaskId.of("job-1");
  static final DecisionRef REF = new DecisionRef("quotaflow.cpu-decisions", 3, 42, 1_000);
  static final CgroupCpuWrite SETTINGS = new CgroupCpuWrite(500, 49, 50_000, 100_000);

  static CpuIntent cpu(boolean apply) {
    return new CpuIntent(REF, TASK, apply, SETTINGS, new CpuLimits(0.5, 0.5));
  }

  static FreezeIntent freeze(long expiresAtMs) {
    return new FreezeIntent(REF, TASK, true, expiresAtMs);
  }

  static FreezeIntent thaw() {
    return new FreezeIntent(REF, TASK, false, 0);
  }

  @Test
  void onWritesTheDecisionsCgroupValuesExactly() {
    assertThat(DecisionPlanner.cpu(cpu(true), Mode.ON)).isEqualTo(new Step.WriteCpu(SETTINGS));
  }

  @Test
  void dryRunAndOffOnlyPreview() {
    assertThat(DecisionPlanner.cpu(cpu(true), Mode.DRY_RUN)).isEqualTo(new Step.Preview());
    assertThat(DecisionPlanner.cpu(cpu(true), Mode.OFF)).isEqualTo(new Step.Preview());
  }

  @Test
  void applyFalseWritesNothingInAnyMode() {
    for (Mode mode : Mode.values()) {
      assertThat(DecisionPlanner.cpu(cpu(false), mode)).isEqualTo(new Step.Skip(Step.SkipReason.NOT_APPLIED));
    }
  }

  @Test
  void aHoldingFreezeIsAppliedUntilItsDeadline() {
    assertThat(DecisionPlanner.freeze(freeze(5_000), Mode.ON, false, 4_999)).isEqualTo(new Step.Freeze(5_000));
    assertThat(DecisionPlanner.freeze(freeze(5_000), Mode.ON, true, 4_999)).as("renewal").isEqualTo(new Step.Freeze(5_000));
  }

  @Test
  void aFreezeWhoseLeaseRanOutIsNeverApplied() {
    for (Mode mode : Mode.values()) {
      assertThat(DecisionPlanner.freeze(freeze(5_000), mode, false, 5_000)).isEqualTo(new Step.Skip(Step.SkipReason.LEASE_OVER));
    }
  }

  @Test
  void itThawsOnlyWhatItFroze() {
    assertThat(DecisionPlanner.freeze(thaw(), Mode.ON, true, 0)).isEqualTo(new Step.Thaw());
    assertThat(DecisionPlanner.freeze(thaw(), Mode.ON, false, 0)).isEqualTo(new Step.LeaveAlone());
  }

  @Test
  void undoingItsOwnFreezeIsAllowedInEveryMode() {
    assertThat(DecisionPlanner.freeze(thaw(), Mode.DRY_RUN, true, 0)).isEqualTo(new Step.Thaw());
    assertThat(DecisionPlanner.freeze(thaw(), Mode.OFF, true, 0)).isEqualTo(new Step.Thaw());
  }

  @Test
  void withoutOnNoNewFreezeIsWritten() {
    assertThat(DecisionPlanner.freeze(freeze(5_000), Mode.DRY_RUN, false, 0)).isEqualTo(new Step.Preview());
    assertThat(DecisionPlanner.freeze(freeze(5_000), Mode.OFF, true, 0)).isEqualTo(new Step.Preview());
    assertThat(DecisionPlanner.freeze(thaw(), Mode.DRY_RUN, false, 0)).isEqualTo(new Step.Preview());
  }
}
