package io.quotaflow.benchmarks;

import io.quotaflow.cgroups.CgroupException;
import io.quotaflow.cgroups.CgroupSandbox;
import io.quotaflow.cgroups.CgroupStatsReader;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.process.Durations;
import io.quotaflow.process.Warnings;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code quotaflow bench cgroups}: the CPU time and heap allocation of reading N task groups'
 * statistics on this node's real cgroups, in this thread, without Kafka or the collector around it
 * (the collector's budget being 500 groups at 1 Hz within 2 % of one core; {@code bench collector}
 * measures the whole process). It creates {@code task-0000} … under {@code quotaflow-bench-<random>}
 * below this process's own groups and removes them again, also on failure. With a period the
 * rounds are paced as the collector paces them (caches go cold in between, which costs more than a
 * tight loop); with 0 they run back to back.
 */
@Command(
    name = "cgroups",
    mixinStandardHelpOptions = true,
    description = {
        "The CPU time and allocation of reading N real empty cgroups' statistics, in one thread (docs/cgroups.md).",
        "Needs writable cgroups (root)."})
public final class CgroupsBench implements Callable<Integer> {

  private static final int WARMUP_ROUNDS = 50;

  @Option(names = "--groups", paramLabel = "N", defaultValue = "500", description = "Task groups to create and read (default: ${DEFAULT-VALUE}).")
  int groups;

  @Option(names = "--rounds", paramLabel = "N", defaultValue = "300", description = "Measured rounds, each reading every group once (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(names = "--period", defaultValue = "0", paramLabel = "DURATION", converter = Durations.Converter.class,
      description = "Pause between rounds, as the collector's period, e.g. 1s; 0 runs them back to back (default: ${DEFAULT-VALUE}).")
  Duration period;

  @Option(names = "--period-ms", paramLabel = "MS", hidden = true, description = "Deprecated: --period in milliseconds.")
  Long deprecatedPeriodMs;

  private long periodMs;

  @CommandLine.Mixin
  BenchCgroupTree tree;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    periodMs = period.toMillis();
    if (deprecatedPeriodMs != null) {
      Warnings.of(spec).deprecatedFlag("--period-ms", "--period " + Durations.format(Duration.ofMillis(deprecatedPeriodMs)));
      periodMs = deprecatedPeriodMs;
    }
    if (groups < 1 || rounds < 1 || periodMs < 0) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--groups and --rounds must be positive, --period at least 0");
    }
    PrintWriter out = spec.commandLine().getOut();
    String parentName = BenchCgroupTree.newParentName();
    CgroupSandbox sandbox;
    try {
      sandbox = CgroupSandbox.open(tree.config(parentName));
    } catch (CgroupException | IllegalArgumentException e) {
      spec.commandLine().getErr().println("quotaflow bench cgroups: needs writable cgroups (root): " + e.getMessage());
      return 1;
    }
    try (sandbox) {
      List<CgroupStatsReader> readers = new ArrayList<>();
      try {
        for (int i = 0; i < groups; i++) {
          TaskId task = sandbox.group(String.format(Locale.ROOT, "task-%04d", i));
          readers.add(sandbox.cgroups().openReader(task));
        }
        out.printf(Locale.ROOT, "quotaflow bench cgroups: %d empty groups under %s (%s); %d rounds after %d"
            + " unmeasured ones, %s.%n", groups, parentName, sandbox.cgroups().version(), rounds, WARMUP_ROUNDS,
            periodMs > 0 ? "one every " + periodMs + " ms" : "back to back");
        out.flush();
        measure(out, sandbox, readers);
      } finally {
        for (CgroupStatsReader reader : readers) {
          reader.close();
        }
      }
    }
    out.printf("Removed the %d groups and %s.%n", groups, parentName);
    out.flush();
    return 0;
  }

  private void measure(PrintWriter out, CgroupSandbox sandbox, List<CgroupStatsReader> readers) throws Exception {
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long sink = 0; // printed, so that no read can be optimized away
    for (int warm = 0; warm < WARMUP_ROUNDS; warm++) {
      for (CgroupStatsReader reader : readers) {
        sink += reader.read().cpuUsageUsec();
      }
    }
    long thread = Thread.currentThread().getId();
    long cpuBefore = threads.getCurrentThreadCpuTime();
    long allocatedBefore = threads.getThreadAllocatedBytes(thread);
    long wallInRounds = 0;
    for (int round = 0; round < rounds; round++) {
      long roundStart = System.nanoTime();
      for (CgroupStatsReader reader : readers) {
        sink += reader.read().cpuUsageUsec();
      }
      wallInRounds += System.nanoTime() - roundStart;
      if (periodMs > 0) {
        Thread.sleep(periodMs); // a benchmark, not a test: the collector's pacing
      }
    }
    double cpuMsPerRound = (threads.getCurrentThreadCpuTime() - cpuBefore) / 1e6 / rounds;
    double wallMsPerRound = wallInRounds / 1e6 / rounds;
    double bytesPerRead = (double) (threads.getThreadAllocatedBytes(thread) - allocatedBefore) / rounds / groups;
    out.printf(Locale.ROOT, "%s: %d groups x %d rounds every %d ms: %.2f ms CPU per round (%.2f %% of one core at 1 Hz),"
            + " %.2f ms wall, %.1f us CPU and %.0f bytes allocated per group read (sink %d)%n",
        sandbox.cgroups().version(), groups, rounds, periodMs, cpuMsPerRound, cpuMsPerRound / 10.0, wallMsPerRound,
        cpuMsPerRound * 1000 / groups, bytesPerRead, sink % 10);
  }
}
