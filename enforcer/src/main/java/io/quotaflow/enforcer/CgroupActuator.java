package io.quotaflow.enforcer;

import io.quotaflow.cgroups.CgroupCpuRead;
import io.quotaflow.cgroups.CgroupCpuWrite;
import io.quotaflow.cgroups.CgroupGoneException;
import io.quotaflow.cgroups.CgroupUnsupportedException;
import io.quotaflow.cgroups.CgroupWriteException;
import io.quotaflow.cgroups.Cgroups;
import io.quotaflow.cgroups.CpuApplyResult;
import io.quotaflow.cgroups.FileWrite;
import io.quotaflow.cgroups.FreezeOutcome;
import io.quotaflow.cgroups.FreezeResult;
import io.quotaflow.cgroups.FreezerState;
import io.quotaflow.cgroups.QuotaClamp;
import io.quotaflow.cgroups.ReadBackMismatchException;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.cgroups.UnsafeCgroupPathException;
import io.quotaflow.cgroups.WriteOutcome;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementStatus;
import java.io.IOException;
import java.time.Duration;
import java.util.stream.Collectors;

/**
 * The enforcer's only contact with the cgroups: each call does one thing to one group through the
 * {@code cgroups} module and turns what happened, errors included, into an {@link Outcome}. Safety
 * (no {@code ..}, no symlinks, allowlisted files) is the module's; a refusal becomes REJECTED, a
 * kernel error FAILED with the file, the value and the errno.
 */
final class CgroupActuator {

  /** A read that either produced values or failed with the outcome to report. */
  record CpuRead(CgroupCpuRead values, Outcome failure) {}

  /** A freezer state read that either produced the state or failed with the outcome to report. */
  record FreezerRead(FreezerState state, Outcome failure) {}

  private final Cgroups cgroups;
  private final Duration freezeTimeout;
  private final EnforcerMetrics metrics;

  CgroupActuator(Cgroups cgroups, Duration freezeTimeout, EnforcerMetrics metrics) {
    this.cgroups = cgroups;
    this.freezeTimeout = freezeTimeout;
    this.metrics = metrics;
  }

  /**
   * Whether the group is no longer one this enforcer may touch: it does not exist, or it is now
   * unsafe (a symlink). An I/O error is not proof of either, so it answers false.
   */
  boolean gone(TaskId task) {
    try {
      return !cgroups.exists(task);
    } catch (UnsafeCgroupPathException e) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  CpuRead readCpu(TaskId task) {
    try {
      return new CpuRead(cgroups.readCpu(task), null);
    } catch (IOException e) {
      return new CpuRead(null, failure(task, e));
    }
  }

  /** Writes the settings; the result carries the values read back. */
  Outcome writeCpu(TaskId task, CgroupCpuWrite settings) {
    long start = System.nanoTime();
    try {
      CpuApplyResult result = cgroups.applyCpu(task, settings);
      metrics.applyLatency(EnforcementKind.CPU, System.nanoTime() - start);
      boolean wrote = result.outcome() == WriteOutcome.APPLIED;
      String detail = wrote ? "wrote " + describe(result) : "already " + Values.of(result.readBack());
      if (result.quotaClamp().isPresent()) {
        detail += "; " + describe(result.quotaClamp().get());
      }
      return Outcome.of(wrote ? EnforcementStatus.APPLIED : EnforcementStatus.UNCHANGED, detail)
          .withCpu(result.readBack());
    } catch (IOException e) {
      metrics.applyLatency(EnforcementKind.CPU, System.nanoTime() - start);
      Outcome failed = failure(task, e);
      return failed.status() == EnforcementStatus.FAILED ? failed.withCpu(readCpu(task).values()) : failed;
    }
  }

  FreezerRead freezerState(TaskId task) {
    try {
      return new FreezerRead(cgroups.freezerState(task), null);
    } catch (IOException e) {
      return new FreezerRead(null, failure(task, e));
    }
  }

  /**
   * Freezes the group and waits until the kernel reports it frozen. A freeze that does not complete
   * in time is lifted again: a half-frozen task (FREEZING) is stopped as much as a frozen one but
   * nobody would own it.
   */
  Outcome freeze(TaskId task) throws InterruptedException {
    long start = System.nanoTime();
    try {
      FreezeResult result = cgroups.freeze(task, freezeTimeout);
      metrics.applyLatency(EnforcementKind.FREEZE, System.nanoTime() - start);
      return switch (result.outcome()) {
        case APPLIED -> Outcome.of(EnforcementStatus.APPLIED, "froze in " + result.waitedMs() + " ms").withFrozen(true);
        case UNCHANGED -> Outcome.of(EnforcementStatus.UNCHANGED, "already frozen").withFrozen(true);
        case TIMED_OUT -> {
          String undo = thawQuietly(task);
          yield Outcome.of(EnforcementStatus.FAILED, "the kernel did not report FROZEN within "
              + freezeTimeout.toMillis() + " ms (last state " + result.state() + "); " + undo)
              .withFrozen(frozenNow(task));
        }
      };
    } catch (IOException e) {
      metrics.applyLatency(EnforcementKind.FREEZE, System.nanoTime() - start);
      return failure(task, e);
    }
  }

  /** Lifts this group's freeze and waits until the kernel reports it thawed. */
  Outcome thaw(TaskId task) throws InterruptedException {
    long start = System.nanoTime();
    try {
      FreezeResult result = cgroups.thaw(task, freezeTimeout);
      metrics.applyLatency(EnforcementKind.FREEZE, System.nanoTime() - start);
      if (result.outcome() == FreezeOutcome.TIMED_OUT) {
        return Outcome.of(EnforcementStatus.FAILED, "the kernel did not report THAWED within "
            + freezeTimeout.toMillis() + " ms (last state " + result.state() + ")").withFrozen(result.state() != FreezerState.THAWED);
      }
      return Outcome.of(result.outcome() == FreezeOutcome.APPLIED ? EnforcementStatus.APPLIED : EnforcementStatus.UNCHANGED,
          result.outcome() == FreezeOutcome.APPLIED ? "thawed in " + result.waitedMs() + " ms" : "already thawed")
          .withFrozen(false);
    } catch (IOException e) {
      metrics.applyLatency(EnforcementKind.FREEZE, System.nanoTime() - start);
      return failure(task, e);
    }
  }

  private String thawQuietly(TaskId task) throws InterruptedException {
    try {
      FreezeResult undo = cgroups.thaw(task, freezeTimeout);
      return undo.outcome() == FreezeOutcome.TIMED_OUT ? "thawing it back did not complete either (state "
          + undo.state() + ")" : "thawed it back";
    } catch (IOException e) {
      return "thawing it back failed: " + e.getMessage();
    }
  }

  private Boolean frozenNow(TaskId task) {
    FreezerRead read = freezerState(task);
    return read.state() == null ? null : read.state() != FreezerState.THAWED;
  }

  /** An error as the result to report. */
  static Outcome failure(TaskId task, IOException e) {
    if (e instanceof CgroupGoneException) {
      return new Outcome(EnforcementStatus.REJECTED, "no cgroup " + task + " under the parent: " + e.getMessage(),
          null, null, true);
    }
    if (e instanceof UnsafeCgroupPathException) {
      return Outcome.of(EnforcementStatus.REJECTED, "refused for safety, nothing written: " + e.getMessage());
    }
    if (e instanceof CgroupWriteException w) {
      return Outcome.of(EnforcementStatus.FAILED, "the kernel refused " + w.file().getFileName() + " = " + w.value()
          + ": " + w.error() + " (" + e.getMessage() + ")");
    }
    if (e instanceof ReadBackMismatchException m) {
      return Outcome.of(EnforcementStatus.FAILED, m.file().getFileName() + " reads back " + m.readBack()
          + ", expected " + m.expected() + " (another writer?)");
    }
    if (e instanceof CgroupUnsupportedException) {
      return Outcome.of(EnforcementStatus.FAILED, "not supported on this node: " + e.getMessage());
    }
    return Outcome.of(EnforcementStatus.FAILED, "I/O error: " + e.getMessage());
  }

  private static String describe(CpuApplyResult result) {
    return result.writes().stream().map(CgroupActuator::describe).collect(Collectors.joining(", "));
  }

  /** Stable wording: "quota clamped to the parent's" is what an operator greps results for. */
  static String describe(QuotaClamp clamp) {
    return "quota clamped to the parent's: asked " + clamp.requestedUs() + " us, wrote " + clamp.writtenUs()
        + " us per " + clamp.periodUs() + " us period, the most the parent groups' quota allows"
        + " (cgroup v1 refuses a child quota above its parent's)";
  }

  private static String describe(FileWrite write) {
    return write.file() + " " + write.before() + " -> " + write.written();
  }
}
