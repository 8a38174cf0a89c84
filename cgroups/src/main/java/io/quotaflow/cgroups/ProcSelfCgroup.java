package io.quotaflow.cgroups;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The groups a process runs in, per hierarchy, as {@code /proc/<pid>/cgroup} lists them:
 * {@code id:controllers:path} for v1 (controllers comma-separated, e.g. {@code cpu,cpuacct}) and
 * {@code 0::path} for v2.
 *
 * @param v1PathByController v1 group path keyed by each controller of its hierarchy
 * @param v2Path the v2 group path, null when the process has no v2 entry
 */
public record ProcSelfCgroup(Map<String, String> v1PathByController, String v2Path) {

  public static final Path PROC_SELF_CGROUP = Path.of("/proc/self/cgroup");

  public ProcSelfCgroup {
    v1PathByController = Map.copyOf(v1PathByController);
  }

  /** This process's groups. */
  public static ProcSelfCgroup readSelf() throws IOException {
    return read(PROC_SELF_CGROUP);
  }

  public static ProcSelfCgroup read(Path file) throws IOException {
    return parse(Files.readString(file, StandardCharsets.UTF_8));
  }

  public static ProcSelfCgroup parse(String text) {
    Map<String, String> v1 = new HashMap<>();
    String v2 = null;
    for (String line : text.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      int first = line.indexOf(':');
      int second = first < 0 ? -1 : line.indexOf(':', first + 1);
      if (second < 0) {
        throw new IllegalArgumentException("not a /proc/<pid>/cgroup line: " + line);
      }
      String controllers = line.substring(first + 1, second);
      String path = line.substring(second + 1);
      if (line.startsWith("0:") && controllers.isEmpty()) {
        v2 = path;
        continue;
      }
      for (String controller : controllers.split(",")) {
        // Named hierarchies (name=systemd) carry no controller Quotaflow manages.
        if (!controller.isEmpty() && !controller.startsWith("name=")) {
          v1.put(controller, path);
        }
      }
    }
    return new ProcSelfCgroup(v1, v2);
  }

  /** The v1 group path of the hierarchy holding any of these controllers. */
  String v1PathFor(Collection<String> controllers) throws CgroupException {
    for (String controller : controllers) {
      String path = v1PathByController.get(controller);
      if (path != null) {
        return path;
      }
    }
    throw new CgroupException("this process is in no v1 hierarchy with controllers " + controllers
        + " according to /proc/self/cgroup");
  }

  String v2PathOrThrow() throws CgroupException {
    if (v2Path == null) {
      throw new CgroupException("this process has no cgroup v2 entry (0::) in /proc/self/cgroup");
    }
    return v2Path;
  }
}
