package io.quotaflow.enforcer;

import io.quotaflow.process.Durations;
import io.quotaflow.process.Environment;
import io.quotaflow.process.OpsAddress;
import io.quotaflow.process.Warnings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The enforcer's own flags, as a picocli mixin of {@link EnforcerCommand}; the node and its cgroups
 * are the flags every node process shares ({@code io.quotaflow.process.NodeOptions}), how to reach
 * Kafka those of every command ({@code io.quotaflow.process.ClusterConnection}).
 */
public final class EnforcerOptions {

  static final int DEFAULT_HTTP_PORT = 9403;
  static final String DEFAULT_HTTP_HOST = "0.0.0.0";
  // For the help texts, which need constants: Enforcer.Settings' defaults, as Durations.format writes them.
  static final String DEFAULT_LEASE_THAW_INTERVAL = "5s";
  static final String DEFAULT_FREEZE_TIMEOUT = "10s";
  static final String DEFAULT_REFLEX_LEASE = "10s";

  @Option(names = "--dry-run", defaultValue = "${env:QUOTAFLOW_ENFORCER_DRY_RUN:-false}",
      description = "Never write a cgroup value, whatever the cluster's enforcement says: report DRY_RUN instead"
          + " (env QUOTAFLOW_ENFORCER_DRY_RUN=true).")
  boolean dryRun;

  @Option(names = "--state-file", paramLabel = "FILE", defaultValue = "${env:QUOTAFLOW_ENFORCER_STATE_FILE}",
      description = "Original values and freezes of this enforcer, kept across restarts (env QUOTAFLOW_ENFORCER_STATE_FILE;"
          + " default ~/.quotaflow/enforcer/NODE.json).")
  Path stateFile;

  @Option(names = "--lease-thaw-interval", paramLabel = "DURATION", converter = Durations.Converter.class,
      description = "Thaw at most one task whose freeze lease ran out per this interval, e.g. 5s; 0 thaws them all at once"
          + " (env QUOTAFLOW_ENFORCER_LEASE_THAW_INTERVAL; default " + DEFAULT_LEASE_THAW_INTERVAL + ").")
  Duration leaseThawInterval;

  @Option(names = "--lease-thaw-interval-ms", paramLabel = "MS", hidden = true,
      description = "Deprecated: --lease-thaw-interval in milliseconds.")
  Long leaseThawIntervalMs;

  @Option(names = "--freeze-timeout", paramLabel = "DURATION", converter = Durations.Positive.class,
      description = "How long a freeze or thaw may take before it is reported FAILED, e.g. 10s"
          + " (env QUOTAFLOW_ENFORCER_FREEZE_TIMEOUT; default " + DEFAULT_FREEZE_TIMEOUT + ").")
  Duration freezeTimeout;

  @Option(names = "--freeze-timeout-ms", paramLabel = "MS", hidden = true,
      description = "Deprecated: --freeze-timeout in milliseconds.")
  Long freezeTimeoutMs;

  @Option(names = "--reflex-hz", paramLabel = "HZ",
      defaultValue = "${env:QUOTAFLOW_ENFORCER_REFLEX_HZ:-" + Enforcer.Settings.DEFAULT_REFLEX_HZ + "}",
      description = "Memory reflex: readings a second of the memory of the tasks the node's last gate table lets it"
          + " watch, freezing one that crosses its threshold between samples; 0 turns the reflex off"
          + " (env QUOTAFLOW_ENFORCER_REFLEX_HZ; default ${DEFAULT-VALUE}).")
  int reflexHz;

  @Option(names = "--reflex-lease", paramLabel = "DURATION", converter = Durations.Positive.class,
      description = "How long a reflex freeze holds unless the streams app adopts it (FREEZE) or overrules it (THAW),"
          + " e.g. 10s (env QUOTAFLOW_ENFORCER_REFLEX_LEASE; default " + DEFAULT_REFLEX_LEASE + ").")
  Duration reflexLease;

  @Option(names = "--http-port", paramLabel = "PORT",
      description = "/metrics and /health port (env QUOTAFLOW_ENFORCER_HTTP_PORT, QUOTAFLOW_HTTP_PORT deprecated;"
          + " default " + DEFAULT_HTTP_PORT + "; 0: any free port).")
  Integer httpPort;

  @Option(names = "--http-host", paramLabel = "HOST",
      description = "/metrics and /health address (env QUOTAFLOW_ENFORCER_HTTP_HOST, QUOTAFLOW_HTTP_HOST deprecated;"
          + " default " + DEFAULT_HTTP_HOST + ").")
  String httpHost;

  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  Environment environment = Environment.system();

  private OpsAddress opsAddress;

  /**
   * @throws IllegalArgumentException naming the flag that is missing or wrong
   */
  public Enforcer.Settings settings(String id, Map<String, Object> clientProperties) {
    Warnings warnings = Warnings.of(command);
    Duration thawInterval = duration(leaseThawInterval, "--lease-thaw-interval", leaseThawIntervalMs,
        "QUOTAFLOW_ENFORCER_LEASE_THAW_INTERVAL", Enforcer.Settings.DEFAULT_LEASE_THAW_INTERVAL, false, warnings);
    Duration timeout = duration(freezeTimeout, "--freeze-timeout", freezeTimeoutMs,
        "QUOTAFLOW_ENFORCER_FREEZE_TIMEOUT", Enforcer.Settings.DEFAULT_FREEZE_TIMEOUT, true, warnings);
    Path state = stateFile != null ? stateFile
        : Path.of(System.getProperty("user.home"), ".quotaflow", "enforcer", id + ".json");
    Duration lease = duration(reflexLease, "--reflex-lease", null, "QUOTAFLOW_ENFORCER_REFLEX_LEASE",
        Enforcer.Settings.DEFAULT_REFLEX_LEASE, true, warnings);
    return new Enforcer.Settings(id, dryRun, state, thawInterval, timeout, clientProperties, reflexHz, lease);
  }

  /**
   * The flag, else its deprecated {@code -ms} form (milliseconds) with a warning, else its
   * environment variable, else the default.
   */
  private Duration duration(Duration value, String flag, Long deprecatedMs, String variable, Duration defaultValue,
      boolean positive, Warnings warnings) {
    if (value != null) {
      return value; // its converter checked it
    }
    if (deprecatedMs != null) {
      if (deprecatedMs < 0 || (positive && deprecatedMs == 0)) {
        throw new IllegalArgumentException(flag + "-ms must be " + (positive ? "> 0" : ">= 0") + ", was " + deprecatedMs);
      }
      warnings.deprecatedFlag(flag + "-ms", flag + " " + Durations.format(Duration.ofMillis(deprecatedMs)));
      return Duration.ofMillis(deprecatedMs);
    }
    Optional<Duration> fromEnvironment = environment.get(variable).map(text -> Environment.duration(variable, text));
    if (positive && fromEnvironment.filter(Duration::isZero).isPresent()) {
      throw new IllegalArgumentException(variable + " must be more than 0, was 0s");
    }
    return fromEnvironment.orElse(defaultValue);
  }

  // Resolved once: host and port are asked for apart, a deprecated variable is warned about once.
  private OpsAddress opsAddress() {
    if (opsAddress == null) {
      opsAddress = OpsAddress.resolve("enforcer", httpHost, httpPort, new OpsAddress(DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT),
          environment, Warnings.of(command), "QUOTAFLOW_HTTP_");
    }
    return opsAddress;
  }

  public String httpHost() {
    return opsAddress().host();
  }

  public int httpPort() {
    return opsAddress().port();
  }
}
