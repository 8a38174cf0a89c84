package io.quotaflow.cgroups;

/** Which cgroup hierarchy a backend drives. */
public enum CgroupVersion {
  V1,
  V2
}
