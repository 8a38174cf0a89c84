package io.quotaflow.process;

import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.CgroupParent;
import io.quotaflow.schemas.Ids;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The flags of every node process (collector, enforcer), as a picocli mixin: which node this is and
 * where its task groups are. One set, parsed one way, because the processes of a node must agree
 * on both: the node id picks the partition each reads or writes, the parent the groups each
 * samples or writes.
 */
public final class NodeOptions {

  @Option(names = "--node", defaultValue = "${env:QUOTAFLOW_NODE}", paramLabel = "NODE",
      description = "This node's id, the first part of every key it reads or writes (env QUOTAFLOW_NODE;"
          + " default: the host name up to its first dot, made a valid id).")
  String node;

  @Option(names = "--cgroup-root", defaultValue = "${env:QUOTAFLOW_CGROUP_ROOT:-/sys/fs/cgroup}", paramLabel = "DIR",
      description = "Where the cgroup hierarchies are mounted (env QUOTAFLOW_CGROUP_ROOT; default ${DEFAULT-VALUE}).")
  Path cgroupRoot;

  @Option(names = "--parent", defaultValue = "${env:QUOTAFLOW_CGROUP_PARENT}", paramLabel = "NAME|/PATH",
      description = "Parent of the task groups: a group name under this process's own group in each hierarchy, or an"
          + " absolute cgroup path such as /batch/quotaflow (env QUOTAFLOW_CGROUP_PARENT; default: "
          + CgroupParent.DEFAULT_NAME + ").")
  String parent;

  @Option(names = "--layout", defaultValue = "${env:QUOTAFLOW_CGROUP_LAYOUT:-auto}", paramLabel = "v1|v2|auto",
      description = "cgroup version to use; auto prefers the tree that holds the cpu controller (env QUOTAFLOW_CGROUP_LAYOUT;"
          + " default ${DEFAULT-VALUE}).")
  String layout;

  /**
   * The node id: {@code --node}, else this host's short name.
   *
   * @throws UsageException when the id given is not a valid one, or none is given and the host name is unusable
   */
  public String node() {
    return nodeId(node, "--node (or QUOTAFLOW_NODE)");
  }

  /**
   * The one node id rule of every node process, the demo's too: {@code given}, else this host's
   * name up to its first dot, made a valid id.
   *
   * @param howToGive what the operator should set when the host name is unusable
   * @throws UsageException when {@code given} is not a valid id, or none is given and the host name is unusable
   */
  public static String nodeId(String given, String howToGive) {
    if (given == null || given.isBlank()) {
      return NodeName.ofThisHost().orElseThrow(() -> new UsageException(
          "--node: this host's name is not usable as a node id; give " + howToGive));
    }
    try {
      return Ids.requireValid("node", given.trim());
    } catch (Ids.InvalidIdException e) {
      throw new UsageException("--node: " + e.getMessage(), e);
    }
  }

  /**
   * Where the task groups are, from {@code --cgroup-root}, {@code --layout} and {@code --parent}.
   *
   * @throws UsageException for a layout or parent that cannot be used
   * @throws ProcessException when this process's own groups cannot be read
   */
  public CgroupConfig cgroupConfig() {
    CgroupLayout cgroupLayout;
    CgroupParent cgroupParent;
    try {
      cgroupLayout = CgroupLayout.parse(layout);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage(), e);
    }
    try {
      cgroupParent = CgroupParent.parse(parent);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--parent: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new ProcessException("--parent: cannot read this process's own cgroups: " + e.getMessage(), e);
    }
    return new CgroupConfig(cgroupRoot, cgroupLayout, cgroupParent);
  }
}
