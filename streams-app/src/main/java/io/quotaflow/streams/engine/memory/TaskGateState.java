package io.quotaflow.streams.engine.memory;

import java.util.Objects;

/**
 * One task as the gate keeps it, as a plain value for a changelogged store.
 *
 * @param spec null when no spec has arrived (the task is then observed, never gated)
 * @param live true between the task's first sample and its GONE sample or idle timeout
 * @param usageBytes the last sample's usage (anonymous memory when known)
 * @param maxUsageBytes the highest usage of this run, the peak of last resort when neither spec nor profile says
 * @param waitingSinceMs stream time the task joined the queue; meaningful only while WAITING
 * @param lastFreezeSentMs stream time of its last FREEZE; meaningful only while WAITING
 * @param decisionPublished a decision about the task was published, so its end is published too
 */
public record TaskGateState(
    String task,
    TaskMemorySpec spec,
    boolean live,
    long usageBytes,
    long maxUsageBytes,
    long lastSeenMs,
    GateRole role,
    long waitingSinceMs,
    long lastFreezeSentMs,
    boolean decisionPublished) {

  public TaskGateState {
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(role, "role");
    if (!live && role != GateRole.RUNNING) {
      throw new IllegalArgumentException("a task that is not live neither holds nor waits: " + task);
    }
  }
}
