package io.quotaflow.cgroups;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Builds the backend for a config: locate hierarchies, resolve the parent in each. */
final class CgroupsFactory {

  private static final Logger LOG = LoggerFactory.getLogger(CgroupsFactory.class);

  private CgroupsFactory() {}

  static Cgroups open(CgroupConfig config) throws IOException {
    HierarchyLocator.Located located = HierarchyLocator.locate(config.root(), config.layout());
    Cgroups cgroups = located.version() == CgroupVersion.V1
        ? openV1(located.v1Roots(), config.parent())
        : openV2(located.v2Root(), config.parent());
    LOG.info("cgroups: {} (layout {})", cgroups.describe(), config.layout());
    return cgroups;
  }

  private static Cgroups openV1(Map<String, Path> roots, CgroupParent parent) throws IOException {
    // Controllers co-mounted in one hierarchy share one directory per group.
    Map<Path, List<String>> controllersByRoot = new LinkedHashMap<>();
    for (String controller : HierarchyLocator.V1_CONTROLLERS) {
      Path root = roots.get(controller);
      if (root != null) {
        controllersByRoot.computeIfAbsent(root, r -> new ArrayList<>()).add(controller);
      }
    }
    List<Hierarchy> hierarchies = new ArrayList<>();
    for (Map.Entry<Path, List<String>> e : controllersByRoot.entrySet()) {
      List<String> components = parent.componentsFor(CgroupVersion.V1, e.getValue());
      hierarchies.add(new Hierarchy(e.getKey(), e.getValue(), resolve(e.getKey(), components)));
    }
    return new V1Cgroups(new GroupTree(hierarchies, find(hierarchies, "cpuacct")),
        find(hierarchies, "cpu"), find(hierarchies, "cpuacct"),
        find(hierarchies, "memory"), find(hierarchies, "freezer"));
  }

  private static Cgroups openV2(Path root, CgroupParent parent) throws IOException {
    List<String> controllers = HierarchyLocator.v2Controllers(root);
    List<String> components = parent.componentsFor(CgroupVersion.V2, controllers);
    Hierarchy h = new Hierarchy(root, controllers, resolve(root, components));
    return new V2Cgroups(new GroupTree(List.of(h), h), h);
  }

  private static Path resolve(Path root, List<String> components) {
    Path out = root;
    for (String component : components) {
      out = out.resolve(component);
    }
    return out;
  }

  private static Hierarchy find(List<Hierarchy> hierarchies, String controller) {
    return hierarchies.stream().filter(h -> h.has(controller)).findFirst().orElse(null);
  }
}
