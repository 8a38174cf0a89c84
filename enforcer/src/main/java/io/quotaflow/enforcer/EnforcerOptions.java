package io.quotaflow.enforcer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The enforcer's own flags, as a picocli mixin of {@link EnforcerCommand}; the node and its cgroups
 * are the flags every node process shares ({@code io.quotaflow.process.NodeOptions}), how to reach
 * Kafka those of every command ({@code io.quotaflow.process.ConnectionOptions}).
 */
public final class EnforcerOptions {

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
  public Enforcer.Settings settings(String id, Map<String, Object> clientProperties) {
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

  public String httpHost() {
    return httpHost;
  }

  public int httpPort() {
    return httpPort;
  }
}
