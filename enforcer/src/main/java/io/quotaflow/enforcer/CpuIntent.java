package io.quotaflow.enforcer;

import io.quotaflow.cgroups.CgroupCpuWrite;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.schemas.avro.CgroupCpuSettings;
import io.quotaflow.schemas.avro.CpuDecision;

/**
 * A task's desired CPU state as the enforcer keeps it: the latest {@code CpuDecision} of the task,
 * reduced to what it acts on.
 *
 * @param apply false: the task is observed only and nothing is written for it
 * @param settings exactly what is written ({@code CpuDecision.cgroup})
 * @param limits the decision's soft and effective limits, for the per-task gauges only
 */
public record CpuIntent(DecisionRef ref, TaskId task, boolean apply, CgroupCpuWrite settings, CpuLimits limits) {

  /**
   * @throws IllegalArgumentException for values no kernel accepts (non-positive shares or weight,
   *     a quota below -1), naming them: such a decision is refused, not written
   */
  static CpuIntent of(DecisionRef ref, TaskId task, CpuDecision decision) {
    CgroupCpuSettings c = decision.getCgroup();
    CgroupCpuWrite settings;
    try {
      settings = new CgroupCpuWrite(c.getShares(), c.getWeight(), c.getQuotaUs(), c.getPeriodUs());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid cgroup values in the decision: " + e.getMessage(), e);
    }
    return new CpuIntent(ref, task, decision.getApply(), settings,
        new CpuLimits(decision.getSoftLimitCpu(), decision.getEffectiveLimitCpu()));
  }
}
