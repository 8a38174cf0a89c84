package io.quotaflow.cli.demo;

/**
 * One line of the live table: what the cgroup burns and holds, and what Quotaflow decided and did.
 * Null fields are not known yet.
 *
 * @param usageCores CPU burnt since the previous row, in cores
 * @param softLimitCpu the monitor's soft limit from the latest decision
 * @param effectiveLimitCpu the soft limit after the pool cap: what the shares follow
 * @param shares cpu.shares (v1) or the weight converted to shares (v2), read from the cgroup
 * @param quotaCores the CFS quota read from the cgroup, in cores; null = none
 * @param lastAction the enforcer's latest status for the task's CPU (APPLIED, DRY_RUN, ...)
 * @param lastActionAgeMs how long ago that result was published
 */
public record TaskRow(String task, Double usageCores, Double softLimitCpu, Double effectiveLimitCpu,
    Long shares, Double quotaCores, String lastAction, Long lastActionAgeMs) {}
