package io.quotaflow.cli;

import io.quotaflow.enforcer.EnforcerOptions;
import io.quotaflow.enforcer.EnforcerProcess;
import io.quotaflow.schemas.Topics;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code quotaflow enforcer}: this node's decisions applied to its cgroups, until Ctrl-C (docs/enforcer.md). */
@Command(name = "enforcer", mixinStandardHelpOptions = true,
    description = {"Apply this node's CPU and freeze decisions to its cgroups and publish what was done to enforcement-results.",
        "Reads only the node's partition of cpu-decisions and freeze-decisions, and cluster-config (the kill switch).",
        "Example: quotaflow enforcer --node $(hostname) --dry-run"})
final class EnforcerCommand implements Callable<Integer> {

  @Mixin
  ConnectionOptions connection;

  @Mixin
  EnforcerOptions options;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  private final EnforcerProcess process = new EnforcerProcess();

  @Override
  public Integer call() throws InterruptedException {
    Topics topics = connection.topics(connection.registryClient());
    return process.run(options, connection.clientProperties(), topics, spec.commandLine().getOut(),
        spec.commandLine().getErr());
  }

  /** Asks a running command to stop, as Ctrl-C does. */
  void requestStop() {
    process.requestStop();
  }
}
