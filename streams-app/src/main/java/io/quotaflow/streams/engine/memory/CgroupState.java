package io.quotaflow.streams.engine.memory;

/** What the collector saw of a task's cgroup; mirrors the sample's {@code state} without importing Avro. */
public enum CgroupState {
  RUNNING,
  /** The freezer reports the cgroup frozen: its memory says nothing about what the task would do. */
  FROZEN,
  /** The last sample of a removed cgroup. */
  GONE
}
