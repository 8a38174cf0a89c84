package io.quotaflow.streams.engine.cpu;

/** The cgroup layout of a node (NodeStatus.cgroup_version). */
public enum CgroupVersion {
  V1,
  V2;

  public static CgroupVersion of(int version) {
    return switch (version) {
      case 1 -> V1;
      case 2 -> V2;
      default -> throw new IllegalArgumentException("cgroup_version must be 1 or 2, was " + version);
    };
  }
}
