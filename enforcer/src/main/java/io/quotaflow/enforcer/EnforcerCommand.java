package io.quotaflow.enforcer;

import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.process.ClusterConnection;
import io.quotaflow.process.NodeOptions;
import io.quotaflow.process.QuotaflowVersion;
import io.quotaflow.schemas.Topics;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * This node's decisions applied to its cgroups, until Ctrl-C (docs/enforcer.md):
 * {@code quotaflow enforcer} and {@link EnforcerMain} run this same command.
 */
@Command(name = "enforcer", mixinStandardHelpOptions = true, versionProvider = QuotaflowVersion.class,
    description = {"Apply this node's CPU and freeze decisions to its cgroups and publish what was done to enforcement-results.",
        "Reads only the node's partition of cpu-decisions, freeze-decisions and gate-tables, and cluster-config (the kill switch).",
        "Between samples, its memory reflex freezes a task that crosses its threshold while the gate admits no peak for it.",
        "Example: quotaflow enforcer --dry-run"})
public final class EnforcerCommand implements Callable<Integer> {

  @Mixin
  ClusterConnection connection;

  @Mixin
  NodeOptions node;

  @Mixin
  EnforcerOptions options;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  private final EnforcerProcess process = new EnforcerProcess();

  @Override
  public Integer call() throws InterruptedException {
    String nodeId = node.node();
    CgroupConfig cgroups = node.cgroupConfig();
    // The partition count is read from each topic; the catalogue's only matters to whoever creates them.
    Topics topics = connection.topics(connection.registryClient());
    return process.run(options, nodeId, cgroups, connection.clientProperties(), topics, spec.commandLine().getOut(),
        spec.commandLine().getErr());
  }

  /** Asks a running command to stop, as Ctrl-C does. */
  public void requestStop() {
    process.requestStop();
  }
}
