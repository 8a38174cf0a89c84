package io.quotaflow.streams.engine.cpu;

import java.util.Objects;
import java.util.Optional;

/**
 * What the settings engine needs to know about the task's node.
 *
 * @param threadsPerCore hardware threads per physical core (NodeStatus.threads_per_core), &gt;= 1
 * @param cgroupVersion  the node's cgroup layout: only v1 rejects a child quota above the parent's
 * @param parentQuota    the parent group's bandwidth when known
 */
public record NodeCpu(int threadsPerCore, CgroupVersion cgroupVersion, Optional<ParentQuota> parentQuota) {

  public NodeCpu {
    Objects.requireNonNull(cgroupVersion, "cgroupVersion");
    Objects.requireNonNull(parentQuota, "parentQuota");
    new Problems("node.").atLeast("threads_per_core", threadsPerCore, 1).throwIfAny();
  }

  /** A node whose parent group's quota is not known. */
  public static NodeCpu of(int threadsPerCore, CgroupVersion cgroupVersion) {
    return new NodeCpu(threadsPerCore, cgroupVersion, Optional.empty());
  }
}
