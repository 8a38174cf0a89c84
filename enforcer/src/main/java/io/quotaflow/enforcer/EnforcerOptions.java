package io.quotaflow.enforcer;

import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.CgroupParent;
import io.quotaflow.schemas.Ids;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The enforcer's own flags, declared once as a picocli mixin for both its own {@code main} and
 * {@code quotaflow enforcer}; how to reach Kafka is the caller's (connection flags).
 */
public final class EnforcerOptions {

  @Option(names = "--node", paramLabel = "NODE", defaultValue = "${env:QUOTAFLOW_NODE}",
      description = "This node's id (required; env QUOTAFLOW_NODE): only decisions keyed NODE/task are acted on.")
  String node;

  @Option(names = "--cgroup-root", paramLabel = "DIR", defaultValue = "${env:QUOTAFLOW_CGROUP_ROOT:-/sys/fs/cgroup}",
      description = "Where the cgroup hierarchies are mounted (env QUOTAFLOW_CGROUP_ROOT; default ${DEFAULT-VALUE}).")
  Path cgroupRoot;

  @Option(names = "--parent", paramLabel = "NAME|/PATH", defaultValue = "${env:QUOTAFLOW_CGROUP_PARENT:-quotaflow}",
      description = "Parent of the task groups (env QUOTAFLOW_CGROUP_PARENT; default ${DEFAULT-VALUE}): a name is taken"
          + " under this process's own group in each hierarchy, a /path from each hierarchy's root.")
  String parent;

  @Option(names = "--layout", paramLabel = "auto|v1|v2", defaultValue = "${env:QUOTAFLOW_CGROUP_LAYOUT:-auto}",
      description = "cgroup version to use (env QUOTAFLOW_CGROUP_LAYOUT; default ${DEFAULT-VALUE}: detected).")
  String layout;

  @Option(names = "--dry-run",
      description = "Never write a cgroup value, whatever the cluster's enforcement says: report DRY_RUN instead.")
  boolean dryRun;

  @Option(names = "--state-file", paramLabel = "FILE", defaultValue = "${env:QUOTAFLOW_ENFORCER_STATE_FILE}",
      description = "Original values and freezes of this enforcer, kept across restarts (env QUOTAFLOW_ENFORCER_STATE_FILE;"
          + " default ~/.quotaflow/enforcer/NODE.json).")
  Path stateFile;

  @Option(names = "--lease-thaw-interval-ms", paramLabel = "MS", defaultValue = "5000",
      description = "Thaw at most one task whose freeze lease ran out per this interval (default ${DEFAULT-VALUE}).")
  long leaseThawIntervalMs;

  @Option(names = "--freeze-timeout-ms", paramLabel = "MS", defaultValue = "10000",
      description = "How long a freeze or thaw may take before it is reported FAILED (default ${DEFAULT-VALUE}).")
  long freezeTimeoutMs;

  @Option(names = "--http-port", paramLabel = "PORT", defaultValue = "${env:QUOTAFLOW_HTTP_PORT:-9403}",
      description = "/metrics and /health port (env QUOTAFLOW_HTTP_PORT; default ${DEFAULT-VALUE}; 0: any free port).")
  int httpPort;

  @Option(names = "--http-host", paramLabel = "HOST", defaultValue = "${env:QUOTAFLOW_HTTP_HOST:-0.0.0.0}",
      description = "/metrics and /health address (env QUOTAFLOW_HTTP_HOST; default ${DEFAULT-VALUE}).")
  String httpHost;

  /**
   * @throws IllegalArgumentException naming the flag that is missing or wrong
   */
  public Enforcer.Settings settings(Map<String, Object> clientProperties) {
    String id = node();
    if (leaseThawIntervalMs < 0) {
      throw new IllegalArgumentException("--lease-thaw-interval-ms must be >= 0, was " + leaseThawIntervalMs);
    }
    if (freezeTimeoutMs <= 0) {
      throw new IllegalArgumentException("--freeze-timeout-ms must be > 0, was " + freezeTimeoutMs);
    }
    Path state = stateFile != null ? stateFile
        : Path.of(System.getProperty("user.home"), ".quotaflow", "enforcer", id + ".json");
    return new Enforcer.Settings(id, dryRun, state, Duration.ofMillis(leaseThawIntervalMs),
        Duration.ofMillis(freezeTimeoutMs), clientProperties);
  }

  /** Where the task groups are, from {@code --cgroup-root}, {@code --layout} and {@code --parent}. */
  public CgroupConfig cgroupConfig() throws IOException {
    CgroupLayout cgroupLayout = CgroupLayout.parse(layout);
    CgroupParent cgroupParent = parent.startsWith("/") ? CgroupParent.at(parent) : CgroupParent.underOwnGroup(parent);
    return new CgroupConfig(cgroupRoot, cgroupLayout, cgroupParent);
  }

  public String node() {
    if (node == null || node.isBlank()) {
      throw new IllegalArgumentException("--node is required (or QUOTAFLOW_NODE): the id this node's decisions are keyed by");
    }
    try {
      return Ids.requireValid("node", node);
    } catch (Ids.InvalidIdException e) {
      throw new IllegalArgumentException("--node: " + e.getMessage(), e);
    }
  }

  public String httpHost() {
    return httpHost;
  }

  public int httpPort() {
    return httpPort;
  }
}
