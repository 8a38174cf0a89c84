package io.quotaflow.cgroups;

/**
 * The freezer state the kernel reports. {@code FREEZING} is a freeze requested but not yet
 * complete (v1 {@code freezer.state}; v2 {@code cgroup.freeze 1} while {@code cgroup.events}
 * still says {@code frozen 0}).
 */
public enum FreezerState {
  THAWED,
  FREEZING,
  FROZEN
}
