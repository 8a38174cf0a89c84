package io.quotaflow.enforcer;

import io.quotaflow.cgroups.CgroupCpuRead;
import io.quotaflow.cgroups.CgroupCpuWrite;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementStatus;
import java.io.IOException;
import java.time.Clock;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * CPU decisions carried out: written exactly, previewed, or undone (OFF). The original values of
 * a group are saved before Quotaflow's first write to it, so OFF can always put them back.
 */
final class CpuEnforcement {

  private static final Logger LOG = LoggerFactory.getLogger(CpuEnforcement.class);

  private final CgroupActuator actuator;
  private final NodeLedger ledger;
  private final Answers answers;
  private final EnforcerMetrics metrics;
  private final Clock clock;

  CpuEnforcement(CgroupActuator actuator, NodeLedger ledger, Answers answers, EnforcerMetrics metrics, Clock clock) {
    this.actuator = actuator;
    this.ledger = ledger;
    this.answers = answers;
    this.metrics = metrics;
    this.clock = clock;
  }

  /**
   * The task's latest decision under {@code mode}.
   *
   * @param whyNotWritten what a preview says, e.g. {@code nothing written (enforcement DRY_RUN)}
   * @param onReceipt the decision just arrived while tailing (not the catch-up at start, not a
   *     reconcile): only then does a write measure the control delay
   */
  void act(CpuIntent intent, Mode mode, String whyNotWritten, boolean onReceipt) {
    Step step = DecisionPlanner.cpu(intent, mode);
    if (step instanceof Step.Skip skip) {
      metrics.skipped(skip.reason().name().toLowerCase(Locale.ROOT));
      return;
    }
    Outcome outcome = step instanceof Step.WriteCpu write
        ? write(intent.task(), write.settings())
        : preview(intent, whyNotWritten);
    if (onReceipt && outcome.status() == EnforcementStatus.APPLIED) {
      metrics.controlDelay(EnforcementKind.CPU, intent.ref(), clock.millis());
    }
    answers.answer(EnforcementKind.CPU, intent.task(), intent.ref(), outcome);
  }

  /**
   * Withdrawn (the task is gone for the job system, or idle): nothing is written, the group keeps
   * its values, and its originals stay for OFF as long as the group exists.
   */
  void withdrawn(TaskId task) {
    if (ledger.original(task).isPresent() && actuator.gone(task)) {
      forgetOriginal(task);
    }
  }

  /** OFF: every group Quotaflow wrote gets its original values back; results name {@code cause}. */
  void restoreAll(DecisionRef cause) {
    for (TaskId task : ledger.tasksWithOriginals()) {
      CgroupCpuRead original = ledger.original(task).orElseThrow();
      Outcome restored = actuator.writeCpu(task, original.toWrite());
      if (restored.groupMissing()) {
        LOG.info("Nothing to restore for {}: its group is gone", task);
        forgetOriginal(task);
        continue;
      }
      if (restored.status() == EnforcementStatus.APPLIED || restored.status() == EnforcementStatus.UNCHANGED) {
        forgetOriginal(task);
        restored = restored.withDetail("enforcement OFF: restored the values from before Quotaflow first wrote ("
            + Values.of(original) + "): " + restored.detail());
      }
      // A failed restore keeps the originals: tried again at the next OFF or start.
      answers.publish(EnforcementKind.CPU, task, cause, restored);
    }
  }

  /** Drops the originals of groups that no longer exist (a reused task id must not inherit them). */
  void pruneGone() {
    for (TaskId task : ledger.tasksWithOriginals()) {
      if (actuator.gone(task)) {
        LOG.info("Group {} is gone: dropping its original values from the state file", task);
        forgetOriginal(task);
      }
    }
  }

  /** Saves the group's values before the first write to it (write-ahead), then writes. */
  private Outcome write(TaskId task, CgroupCpuWrite settings) {
    if (ledger.original(task).isEmpty()) {
      CgroupActuator.CpuRead before = actuator.readCpu(task);
      if (before.failure() != null) {
        return before.failure();
      }
      try {
        ledger.recordOriginal(task, before.values());
      } catch (IOException e) {
        stateFileFailed("saving the original values of " + task, e);
        return Outcome.of(EnforcementStatus.FAILED, "nothing written: the group's original values could not be"
            + " saved to the state file, so OFF could not restore them (" + e.getMessage() + ")").withCpu(before.values());
      }
    }
    Outcome outcome = actuator.writeCpu(task, settings);
    if (outcome.groupMissing()) {
      forgetOriginal(task);
    }
    return outcome;
  }

  private Outcome preview(CpuIntent intent, String whyNotWritten) {
    CgroupActuator.CpuRead now = actuator.readCpu(intent.task());
    if (now.failure() != null) {
      return now.failure();
    }
    return Outcome.of(EnforcementStatus.DRY_RUN, whyNotWritten + ": would write " + Values.of(intent.settings())
        + "; the group has " + Values.of(now.values())).withCpu(now.values());
  }

  private void forgetOriginal(TaskId task) {
    try {
      ledger.forgetOriginal(task);
    } catch (IOException e) {
      stateFileFailed("dropping the original values of " + task, e);
    }
  }

  private void stateFileFailed(String what, IOException e) {
    metrics.stateFileFailed();
    LOG.error("State file: {} failed: {}", what, e.getMessage());
  }
}
