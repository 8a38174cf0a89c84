package io.quotaflow.benchmarks;

import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.CgroupParent;
import io.quotaflow.cgroups.Cgroups;
import java.io.IOException;
import java.nio.file.Path;
import java.util.UUID;
import picocli.CommandLine.Option;

/** The cgroup tree a benchmark on real cgroups works in: its options, and a parent of its own below this process's groups. */
final class BenchCgroupTree {

  @Option(names = "--layout", paramLabel = "v1|v2|auto", defaultValue = "auto", description = "cgroup layout: v1, v2 or auto (default: ${DEFAULT-VALUE}).")
  String layout;

  @Option(names = "--cgroup-root", paramLabel = "DIR", defaultValue = "/sys/fs/cgroup", description = "cgroup root (default: ${DEFAULT-VALUE}).")
  Path cgroupRoot;

  /** A fresh parent name, {@code quotaflow-bench-<random>}, so that concurrent runs never share groups. */
  static String newParentName() {
    return "quotaflow-bench-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** The tree's configuration with {@code parentName} under this process's own groups; a bad layout is an IllegalArgumentException. */
  CgroupConfig config(String parentName) throws IOException {
    return new CgroupConfig(cgroupRoot, CgroupLayout.parse(layout), CgroupParent.underOwnGroup(parentName));
  }

  /**
   * As {@link #config}, but where CPU settings can be written: on a hybrid host whose v2 tree has no
   * cpu controller, {@code auto} means the v1 tree. Opens the tree to find out; creates nothing.
   */
  CgroupConfig cpuConfig(String parentName) throws IOException {
    CgroupConfig config = config(parentName);
    if (config.layout() == CgroupLayout.AUTO && !Cgroups.open(config).cpuSettingsSupported()) {
      return new CgroupConfig(config.root(), CgroupLayout.V1, config.parent());
    }
    return config;
  }
}
