package io.quotaflow.cli.demo;

/**
 * One line of the live table: what the cgroup burns and holds, and what Quotaflow decided and did.
 * Null fields are not known yet (or, for the gate's, do not apply: the task is not gated).
 *
 * @param pool the pool the task's spec names
 * @param usageCores CPU burnt since the previous row, in cores
 * @param softLimitCpu the monitor's soft limit from the latest decision
 * @param effectiveLimitCpu the soft limit after the pool cap: what the shares follow
 * @param shares cpu.shares (v1) or the weight converted to shares (v2), read from the cgroup
 * @param quotaCores the CFS quota read from the cgroup, in cores; null = none
 * @param memoryBytes anonymous memory read from the cgroup (v1 {@code memory.stat total_rss}), else its usage
 * @param gateRole where a gated task stands at the memory peak gate: running, holding or waiting, as the node's gate table says
 * @param queuePosition a waiting task's place in the node's wait queue, 0 = head
 * @param lastAction the enforcer's latest status for the task's CPU (APPLIED, DRY_RUN, ...)
 * @param lastActionAgeMs how long ago that result was published
 */
public record TaskRow(String task, String pool, Double usageCores, Double softLimitCpu, Double effectiveLimitCpu,
    Long shares, Double quotaCores, Long memoryBytes, String gateRole, Integer queuePosition,
    String lastAction, Long lastActionAgeMs) {}
