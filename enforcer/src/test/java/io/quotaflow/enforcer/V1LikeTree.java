package io.quotaflow.enforcer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A directory tree laid out like a cgroup v1 mount (one directory per controller), with the files
 * the cgroups module reads at the kernel's defaults: for tests of what the enforcer writes where no
 * real cgroup may be touched (symlinks out of the parent, hostile ids).
 */
record V1LikeTree(Path root) {
  static final String[] CONTROLLERS = {"cpu", "cpuacct", "memory", "freezer"};

  /** Each controller's root, with its own {@code cgroup.procs}. */
  V1LikeTree {
    for (String controller : CONTROLLERS) {
      write(root, controller + "/cgroup.procs", "");
    }
  }

  /** The group {@code path} (e.g. {@code qf/t1}) under every controller. */
  void group(String path) {
    for (String controller : CONTROLLERS) {
      group(controller, path);
    }
  }

  void group(String controller, String path) {
    String dir = controller + "/" + path + "/";
    write(root, dir + "cgroup.procs", "");
    switch (controller) {
      case "cpu" -> {
        write(root, dir + "cpu.shares", "1024\n");
        write(root, dir + "cpu.cfs_period_us", "100000\n");
        write(root, dir + "cpu.cfs_quota_us", "-1\n");
      }
      case "cpuacct" -> write(root, dir + "cpuacct.usage", "0\n");
      case "memory" -> write(root, dir + "memory.usage_in_bytes", "0\n");
      case "freezer" -> {
        write(root, dir + "freezer.state", "THAWED\n");
        write(root, dir + "freezer.self_freezing", "0\n");
      }
      default -> throw new IllegalArgumentException(controller);
    }
  }

  /** {@code link} (under every controller) a symbolic link to {@code target}, both relative to the controller. */
  void symlink(String link, String target) {
    for (String controller : CONTROLLERS) {
      try {
        Files.createSymbolicLink(root.resolve(controller + "/" + link), root.resolve(controller + "/" + target));
      } catch (IOException e) {
        throw new IllegalStateException("cannot link " + link + " to " + target, e);
      }
    }
  }

  private static void write(Path root, String relative, String content) {
    try {
      Path path = root.resolve(relative);
      Files.createDirectories(path.getParent());
      Files.writeString(path, content);
    } catch (IOException e) {
      throw new IllegalStateException("cannot write " + relative + " under " + root, e);
    }
  }
}
