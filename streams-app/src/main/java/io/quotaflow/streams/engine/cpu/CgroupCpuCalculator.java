package io.quotaflow.streams.engine.cpu;

import io.quotaflow.cgroups.KernelCpuLimits;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Computes a task's {@link CgroupCpuTarget} (DESIGN section 2, the OpenPBS cgroup hook's cpu
 * controller) from the cluster's {@link CgroupCpuTunables}.
 * Reclaim lowers the task's weight, as YTsaurus lowers cpu_guarantee; the quota follows the hard
 * limit, as the PBS hook does. Pure and stateless: a processor holds one instance.
 */
public final class CgroupCpuCalculator {

  /** PBS writes 1000 shares per CPU (not the kernel's 1024); only ratios between siblings matter. */
  private static final double SHARES_PER_CPU = 1000.0;

  public CgroupCpuTarget compute(CgroupCpuTunables config, TaskCpu task, NodeCpu node) {
    long shares = task.isZeroCpu()
        ? zeroCpuShares(config.zeroCpusSharesFraction())
        : shares(task.effectiveLimitCpu());
    return new CgroupCpuTarget(shares, KernelCpuLimits.weightForShares(shares), quotaUs(config, task, node),
        config.cfsPeriodUs());
  }

  /** clamp(int(1000 x e), 2, 262144): the kernel clamps silently to the same range. */
  static long shares(double effectiveLimitCpu) {
    // A double beyond Long.MAX_VALUE casts to Long.MAX_VALUE, which clamps to the maximum.
    return KernelCpuLimits.clampShares((long) (SHARES_PER_CPU * effectiveLimitCpu));
  }

  /**
   * max(2, int(1000 x fraction)): 2, the kernel minimum, makes the task weightless. Capped at
   * 262144 like any other task's shares.
   */
  static long zeroCpuShares(double zeroCpusSharesFraction) {
    return shares(zeroCpusSharesFraction);
  }

  /**
   * ceil(period x h x fudge), h = cpu_limit (x threads per core when ncpus are cores and
   * hyperthreads are used) or zero_cpus_quota_fraction for a zero-CPU task, which always gets a
   * quota "to keep it honest". Decimal arithmetic on the doubles' shortest decimal forms, so
   * that 100000 x 4 x 1.03 is 412000, not 412001 from binary rounding noise.
   */
  static long quotaUs(CgroupCpuTunables config, TaskCpu task, NodeCpu node) {
    if (!task.isZeroCpu() && !config.enforcePerPeriodQuota()) {
      return KernelCpuLimits.NO_QUOTA;
    }
    BigDecimal cpu;
    if (task.isZeroCpu()) {
      // PBS replaces the CPU count after the hyperthread multiplication, and the fraction
      // is documented as "of a CPU thread": it is not multiplied.
      cpu = BigDecimal.valueOf(config.zeroCpusQuotaFraction());
    } else {
      cpu = BigDecimal.valueOf(task.hardLimitCpu());
      if (config.multipliesByThreadsPerCore()) {
        cpu = cpu.multiply(BigDecimal.valueOf(node.threadsPerCore()));
      }
    }
    BigDecimal quotaUs = BigDecimal.valueOf(config.cfsPeriodUs())
        .multiply(cpu)
        .multiply(BigDecimal.valueOf(config.cfsQuotaFudgeFactor()))
        .setScale(0, RoundingMode.CEILING);
    quotaUs = quotaUs.min(BigDecimal.valueOf(KernelCpuLimits.MAX_QUOTA_US));
    // Last, so the value is always one the kernel accepts on its own. A v1 parent with a lower
    // quota is the enforcer's to honour: it reads the parent when it writes, and reports the clamp.
    return Math.max(quotaUs.longValueExact(), KernelCpuLimits.MIN_QUOTA_US);
  }
}
