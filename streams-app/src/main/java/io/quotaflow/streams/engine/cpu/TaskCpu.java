package io.quotaflow.streams.engine.cpu;

/**
 * A task's CPU as the settings engine needs it.
 *
 * @param ncpus             CPUs allotted by the spec; 0 makes the task zero-CPU (weightless)
 * @param hardLimitCpu      the spec's cpu_limit, cores: what the quota follows
 * @param effectiveLimitCpu the soft limit after the pool cap, cores: what the weight follows
 *                          (the topology passes the hard limit when reclaim is off)
 */
public record TaskCpu(double ncpus, double hardLimitCpu, double effectiveLimitCpu) {

  public TaskCpu {
    new Problems("task.")
        .atLeast("ncpus", ncpus, 0)
        .atLeast("hard_limit_cpu", hardLimitCpu, 0)
        .atLeast("effective_limit_cpu", effectiveLimitCpu, 0)
        .throwIfAny();
  }

  /** PBS's test is value &lt;= 0; negative values are rejected above, so this is ncpus == 0. */
  public boolean isZeroCpu() {
    return ncpus == 0;
  }
}
