package io.quotaflow.cgroups;

import java.nio.file.Path;
import java.util.List;

/**
 * One mounted cgroup hierarchy and the parent of the task groups in it.
 *
 * @param root the real path of the hierarchy's root (resolved once, at open)
 * @param controllers the controllers Quotaflow uses from it (v1), or the v2 tree's
 * @param parent the task groups' parent: {@code root} plus components that are checked, at every
 *     use, to contain no symlink
 */
record Hierarchy(Path root, List<String> controllers, Path parent) {

  Hierarchy {
    controllers = List.copyOf(controllers);
  }

  boolean has(String controller) {
    return controllers.contains(controller);
  }

  @Override
  public String toString() {
    return String.join(",", controllers) + " at " + parent;
  }
}
