package io.quotaflow.streams.engine.cpu;

import static io.quotaflow.cgroups.KernelCpuLimits.MAX_PERIOD_US;
import static io.quotaflow.cgroups.KernelCpuLimits.MAX_QUOTA_US;
import static io.quotaflow.cgroups.KernelCpuLimits.MAX_SHARES;
import static io.quotaflow.cgroups.KernelCpuLimits.MAX_WEIGHT;
import static io.quotaflow.cgroups.KernelCpuLimits.MIN_PERIOD_US;
import static io.quotaflow.cgroups.KernelCpuLimits.MIN_QUOTA_US;
import static io.quotaflow.cgroups.KernelCpuLimits.MIN_SHARES;
import static io.quotaflow.cgroups.KernelCpuLimits.MIN_WEIGHT;
import static io.quotaflow.cgroups.KernelCpuLimits.NO_QUOTA;

import io.quotaflow.cgroups.KernelCpuLimits;

/**
 * The engine's result for one task: the cgroup CPU values it wants written, computed by
 * {@link CgroupCpuCalculator}. The topology publishes it as the decision's Avro
 * {@code CgroupCpuSettings} ({@code CpuDecision.cgroup}), exactly what the enforcer writes. The
 * constructor holds every value to a range the kernel accepts ({@link KernelCpuLimits}), so a
 * record that exists can be written.
 *
 * @param shares   v1 cpu.shares
 * @param weight   v2 cpu.weight
 * @param quotaUs  CFS quota per period, usec: {@link KernelCpuLimits#NO_QUOTA} for none (v1
 *                 cfs_quota_us -1, v2 "max")
 * @param periodUs CFS period, usec
 */
public record CgroupCpuTarget(long shares, long weight, long quotaUs, long periodUs) {

  public CgroupCpuTarget {
    Problems problems = new Problems("cgroup.")
        .inRange("shares", shares, MIN_SHARES, MAX_SHARES)
        .inRange("weight", weight, MIN_WEIGHT, MAX_WEIGHT)
        .inRange("period_us", periodUs, MIN_PERIOD_US, MAX_PERIOD_US);
    if (quotaUs != NO_QUOTA) {
      problems.inRange("quota_us", quotaUs, MIN_QUOTA_US, MAX_QUOTA_US);
    }
    problems.throwIfAny();
  }

  public boolean hasQuota() {
    return quotaUs != NO_QUOTA;
  }
}
