package io.quotaflow.cgroups;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the hierarchies under a cgroup root by their layout on disk, so a fake tree in a temp
 * directory is found exactly as {@code /sys/fs/cgroup} is.
 *
 * <ul>
 *   <li>v1: a directory per controller ({@code cpu}, {@code cpuacct}, ...), or a co-mounted
 *       {@code cpu,cpuacct} (often with {@code cpu} as a symlink to it: mount roots are
 *       configuration, so they alone are resolved).
 *   <li>v2: {@code cgroup.controllers} at the root (unified) or under {@code unified} (hybrid).
 * </ul>
 */
final class HierarchyLocator {

  /** The v1 controllers Quotaflow reads or writes, in the order a process is attached. */
  static final List<String> V1_CONTROLLERS = List.of("cpu", "cpuacct", "memory", "freezer");

  record Located(CgroupVersion version, Map<String, Path> v1Roots, Path v2Root) {}

  private HierarchyLocator() {}

  static Located locate(Path root, CgroupLayout layout) throws IOException {
    if (!Files.isDirectory(root)) {
      throw new CgroupException("cgroup root " + root + " does not exist or is not a directory");
    }
    Path realRoot = root.toRealPath();
    Path v2 = v2Root(realRoot);
    Map<String, Path> v1 = v1Roots(realRoot);
    switch (layout) {
      case V1:
        if (!v1.containsKey("cpuacct")) {
          throw new CgroupException("layout v1: no cgroup v1 cpuacct hierarchy under " + realRoot
              + " (found " + v1.keySet() + ")");
        }
        return new Located(CgroupVersion.V1, v1, null);
      case V2:
        if (v2 == null) {
          throw new CgroupException("layout v2: no cgroup v2 tree (cgroup.controllers) at " + realRoot
              + " or " + realRoot.resolve("unified"));
        }
        return new Located(CgroupVersion.V2, Map.of(), v2);
      default:
        // Prefer the tree that holds the cpu controller: a hybrid node keeps it on v1.
        if (v2 != null && (v2.equals(realRoot) || v2Controllers(v2).contains("cpu"))) {
          return new Located(CgroupVersion.V2, Map.of(), v2);
        }
        if (v1.containsKey("cpuacct")) {
          return new Located(CgroupVersion.V1, v1, null);
        }
        if (v2 != null) {
          return new Located(CgroupVersion.V2, Map.of(), v2);
        }
        throw new CgroupException("no cgroup hierarchy found under " + realRoot
            + ": neither a v2 tree (cgroup.controllers) nor a v1 cpuacct hierarchy");
    }
  }

  private static Path v2Root(Path root) throws IOException {
    if (Files.isRegularFile(root.resolve("cgroup.controllers"))) {
      return root;
    }
    Path unified = root.resolve("unified");
    if (Files.isRegularFile(unified.resolve("cgroup.controllers"))) {
      return unified.toRealPath();
    }
    return null;
  }

  static List<String> v2Controllers(Path v2Root) throws IOException {
    String text = KernfsIo.readOrNull(v2Root.resolve("cgroup.controllers"));
    return text == null || text.isBlank() ? List.of() : Arrays.asList(text.trim().split("\\s+"));
  }

  private static Map<String, Path> v1Roots(Path root) throws IOException {
    Map<String, Path> found = new LinkedHashMap<>();
    for (String controller : V1_CONTROLLERS) {
      Path candidate = root.resolve(controller);
      if (isV1Hierarchy(candidate)) {
        found.put(controller, candidate.toRealPath());
      }
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (!name.contains(",") || !isV1Hierarchy(entry)) {
          continue;
        }
        for (String controller : name.split(",")) {
          if (V1_CONTROLLERS.contains(controller)) {
            found.putIfAbsent(controller, entry.toRealPath());
          }
        }
      }
    }
    return found;
  }

  private static boolean isV1Hierarchy(Path dir) {
    return Files.isDirectory(dir) && Files.isRegularFile(dir.resolve("cgroup.procs"))
        && !Files.isRegularFile(dir.resolve("cgroup.controllers"));
  }
}
