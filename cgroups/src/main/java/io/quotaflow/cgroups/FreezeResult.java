package io.quotaflow.cgroups;

/**
 * What a freeze or thaw did.
 *
 * @param state the state the kernel reported last
 * @param waitedMs how long this call waited for the kernel
 */
public record FreezeResult(TaskId task, FreezeOutcome outcome, FreezerState state, long waitedMs) {}
