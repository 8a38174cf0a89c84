package io.quotaflow.benchmarks;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code quotaflow bench ...}: benchmarks that print figures; none of them is a test. The
 * {@code quotaflow} command registers it as a subcommand; it lives in its own module so that the
 * benchmarks' code is not part of the cli's.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Run a benchmark and print its figures (see docs/benchmarks.md).",
    subcommands = {
        MemoryBench.class,
        PoolsBench.class,
        CollectorBench.class,
        CpuBench.class,
        CgroupsBench.class,
        SoakBench.class,
        EnginesBench.class,
        EnforcerBench.class,
    })
public final class BenchCommand implements Runnable {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing benchmark: try 'quotaflow bench --help'.");
  }
}
