package io.quotaflow.streams.engine.cpu;

/**
 * What the settings engine needs to know about the task's node.
 *
 * <p>Not the parent group's quota: the engine never reads a cgroup. On v1 the enforcer clamps a
 * quota to what the parent allows when it writes it, and its result says so.
 *
 * @param threadsPerCore hardware threads per physical core (NodeStatus.threads_per_core), &gt;= 1
 */
public record NodeCpu(int threadsPerCore) {

  public NodeCpu {
    new Problems("node.").atLeast("threads_per_core", threadsPerCore, 1).throwIfAny();
  }
}
