package io.quotaflow.cgroups;

import java.io.IOException;
import java.nio.file.Path;

/**
 * How to find the cgroups: the root the hierarchies are mounted under, the layout, and the
 * parent of the task groups.
 */
public record CgroupConfig(Path root, CgroupLayout layout, CgroupParent parent) {

  public static final Path DEFAULT_ROOT = Path.of("/sys/fs/cgroup");

  /** {@code /sys/fs/cgroup}, detected layout, {@code quotaflow} under this process's groups. */
  public static CgroupConfig defaults() throws IOException {
    return new CgroupConfig(DEFAULT_ROOT, CgroupLayout.AUTO, CgroupParent.defaultParent());
  }
}
