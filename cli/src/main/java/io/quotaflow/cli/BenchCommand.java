package io.quotaflow.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code quotaflow bench ...}: benchmarks that print figures; none of them is a test. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Run a benchmark and print its figures (see docs/benchmarks.md).",
    subcommands = {
        io.quotaflow.cli.bench.MemoryBench.class,
        io.quotaflow.cli.bench.PoolsBench.class,
        io.quotaflow.cli.bench.CollectorBench.class,
        io.quotaflow.cli.bench.CpuBench.class,
    })
public final class BenchCommand implements Runnable {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing benchmark: try 'quotaflow bench --help'.");
  }
}
