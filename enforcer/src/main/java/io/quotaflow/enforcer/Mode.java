package io.quotaflow.enforcer;

import io.quotaflow.schemas.avro.Enforcement;

/**
 * What the enforcer does with decisions: the cluster's kill switch ({@code ClusterConfig.enforcement})
 * combined with the process's own {@code --dry-run} flag.
 */
public enum Mode {
  /** Decisions are written to the cgroups. */
  ON,
  /** Decisions are reported as DRY_RUN; nothing new is written. */
  DRY_RUN,
  /** As DRY_RUN, and every value Quotaflow wrote is put back as it was before (and its freezes lifted). */
  OFF;

  /**
   * {@code --dry-run} wins over the cluster, OFF included: a process started with it never writes a
   * cgroup value, not even to restore one.
   */
  public static Mode of(Enforcement cluster, boolean dryRunFlag) {
    if (dryRunFlag) {
      return DRY_RUN;
    }
    return switch (cluster) {
      case ON -> ON;
      case OFF -> OFF;
      // DRY_RUN, and any symbol a newer schema adds: reading it as DRY_RUN writes nothing.
      default -> DRY_RUN;
    };
  }

  /** What a change from {@code this} to {@code next} requires of the enforcer. */
  public Transition to(Mode next) {
    if (next == this) {
      return Transition.NOTHING;
    }
    return switch (next) {
      case ON -> Transition.RECONCILE;
      case OFF -> Transition.RESTORE;
      case DRY_RUN -> Transition.NOTHING;
    };
  }

  /** The work a mode change brings. */
  public enum Transition {
    NOTHING,
    /** Back to ON: apply the latest decision of every task, as at start. */
    RECONCILE,
    /** To OFF: restore every group's original values and thaw every task this enforcer froze. */
    RESTORE
  }
}
