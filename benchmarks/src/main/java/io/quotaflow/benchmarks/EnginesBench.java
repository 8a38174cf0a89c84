package io.quotaflow.benchmarks;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code quotaflow bench engines}: the four engines in isolation under JMH (package
 * {@code io.quotaflow.benchmarks.engines}), each benchmark single-threaded, so its rate is per core.
 */
@Command(
    name = "engines",
    mixinStandardHelpOptions = true,
    description = {
        "The engines in isolation under JMH, single-threaded (rates are per core), with JMH's GC profiler: "
            + "JobCpuMonitor.step over 5,000 tasks, CgroupCpuCalculator.compute, PeakGate.onSample on a node of "
            + "50 tasks, IntegralPools.update of 10 and 100 pools. Prints ops/s per core with JMH's 99.9 %% error "
            + "and bytes allocated per op; judges the CPU monitor against 5,000,000 samples/s per core.",
        "JMH forks JVMs with this JVM's class path (quotaflow.jar)."
    })
public final class EnginesBench implements Callable<Integer> {

  /** Issue 20's goal for the CPU monitor's step, samples per second per core. */
  static final double CPU_MONITOR_GOAL_PER_S = 5_000_000;

  private static final String PACKAGE = "io.quotaflow.benchmarks.engines.";

  @Option(names = "--forks", paramLabel = "N", defaultValue = "1",
      description = "JVMs forked per benchmark; 0 runs in this JVM (quick, less trustworthy) (default: ${DEFAULT-VALUE}).")
  int forks;

  @Option(names = "--warmup-iterations", paramLabel = "N", defaultValue = "3",
      description = "Warmup iterations per fork (default: ${DEFAULT-VALUE}).")
  int warmupIterations;

  @Option(names = "--warmup-time-ms", paramLabel = "MS", defaultValue = "1000",
      description = "Length of one warmup iteration, ms (default: ${DEFAULT-VALUE}).")
  long warmupTimeMs;

  @Option(names = "--measurement-iterations", paramLabel = "N", defaultValue = "5",
      description = "Measured iterations per fork (default: ${DEFAULT-VALUE}).")
  int measurementIterations;

  @Option(names = "--measurement-time-ms", paramLabel = "MS", defaultValue = "1000",
      description = "Length of one measured iteration, ms (default: ${DEFAULT-VALUE}).")
  long measurementTimeMs;

  @Option(names = "--include", paramLabel = "REGEX", defaultValue = ".*",
      description = "Run the benchmarks whose name (Class.method, e.g. CpuMonitorBenchmark.step) matches this "
          + "regular expression somewhere (default: all).")
  String include;

  @Option(names = "--jmh-output", description = "Also print JMH's own progress and results.")
  boolean jmhOutput;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    if (forks < 0 || warmupIterations < 0 || measurementIterations < 1 || warmupTimeMs < 1 || measurementTimeMs < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--forks and --warmup-iterations must be at least 0, "
          + "--measurement-iterations, --warmup-time-ms and --measurement-time-ms at least 1");
    }
    try {
      Pattern.compile(include);
    } catch (PatternSyntaxException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--include is not a regular expression: "
          + e.getDescription());
    }
    PrintWriter out = spec.commandLine().getOut();
    Options options = new OptionsBuilder()
        .include(PACKAGE + ".*(" + include + ")")
        .forks(forks)
        .warmupIterations(warmupIterations)
        .warmupTime(TimeValue.milliseconds(warmupTimeMs))
        .measurementIterations(measurementIterations)
        .measurementTime(TimeValue.milliseconds(measurementTimeMs))
        .threads(1)
        .addProfiler(GCProfiler.class)
        .verbosity(jmhOutput ? VerboseMode.NORMAL : VerboseMode.SILENT)
        .shouldFailOnError(true)
        .build();
    out.printf(Locale.ROOT, "quotaflow bench engines: JMH, 1 thread (rates are per core), %d fork(s), "
            + "%d x %d ms warmup, %d x %d ms measured, GC profiler; --include %s%n",
        forks, warmupIterations, warmupTimeMs, measurementIterations, measurementTimeMs, include);
    out.flush();
    Collection<RunResult> results;
    try {
      results = new Runner(options).run();
    } catch (NoBenchmarksException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--include " + include
          + " matches no benchmark (they are CpuMonitorBenchmark.step, CgroupCpuBenchmark.computeDefaults, "
          + "CgroupCpuBenchmark.computeWithQuota, PeakGateBenchmark.onSample, IntegralPoolsBenchmark.update)");
    } catch (RunnerException e) {
      // E.g. another JMH run holds its lock file: two runs at once would distort each other's figures.
      spec.commandLine().getErr().println("quotaflow bench engines: " + e.getMessage().strip());
      return 1;
    }
    printTable(out, rows(results));
    out.flush();
    return 0;
  }

  /** One line of the table. */
  /** {@code errorPerS} is NaN where JMH has none (a single measured iteration). */
  record Row(String operation, String state, String unit, double opsPerS, double errorPerS, double bytesPerOp,
             String note) {
  }

  static List<Row> rows(Collection<RunResult> results) {
    List<Row> rows = new ArrayList<>();
    for (RunResult run : results) {
      BenchmarkParams params = run.getParams();
      String name = params.getBenchmark().substring(PACKAGE.length());
      Result<?> primary = run.getPrimaryResult();
      double ops = primary.getScore();
      double error = primary.getScoreError(); // NaN from a single iteration
      double bytesPerOp = allocatedBytesPerOp(run);
      rows.add(switch (name) {
        case "CpuMonitorBenchmark.step" -> new Row("JobCpuMonitor.step", "5,000 tasks", "samples", ops, error,
            bytesPerOp, String.format(Locale.ROOT, "goal >= %,.0f/s: %s", CPU_MONITOR_GOAL_PER_S,
                ops >= CPU_MONITOR_GOAL_PER_S ? "met" : "MISSED"));
        case "CgroupCpuBenchmark.computeDefaults" -> new Row("CgroupCpuCalculator.compute", "defaults (no quota)",
            "decisions", ops, error, bytesPerOp, "");
        case "CgroupCpuBenchmark.computeWithQuota" -> new Row("CgroupCpuCalculator.compute", "per-period quota",
            "decisions", ops, error, bytesPerOp, "");
        case "PeakGateBenchmark.onSample" -> new Row("PeakGate.onSample+drainChanges",
            "50 tasks, " + params.getParam("mode"), "samples", ops, error, bytesPerOp, "");
        case "IntegralPoolsBenchmark.update" -> {
          int pools = Integer.parseInt(params.getParam("pools"));
          yield new Row("IntegralPools.update", pools + " pools", "updates", ops, error, bytesPerOp,
              String.format(Locale.ROOT, "= %,.0f pools/s", ops * pools));
        }
        default -> new Row(name, "", "ops", ops, error, bytesPerOp, "");
      });
    }
    return rows;
  }

  /** JMH's gc.alloc.rate.norm; older JMH versions prefix secondary results with a middle dot. */
  @SuppressWarnings("rawtypes") // JMH declares the map with a raw Result
  private static double allocatedBytesPerOp(RunResult run) {
    for (var e : run.getSecondaryResults().entrySet()) {
      if (e.getKey().endsWith("gc.alloc.rate.norm")) {
        return e.getValue().getScore();
      }
    }
    return Double.NaN;
  }

  static void printTable(PrintWriter out, List<Row> rows) {
    out.printf(Locale.ROOT, "%n%-31s %-20s %-9s %15s %13s %9s  %s%n",
        "engine.operation", "state", "unit", "ops/s per core", "± (99.9 %)", "B/op", "");
    for (Row r : rows) {
      String error = Double.isNaN(r.errorPerS()) ? "-" : String.format(Locale.ROOT, "%,.0f", r.errorPerS());
      out.printf(Locale.ROOT, "%-31s %-20s %-9s %,15.0f %13s %9.1f  %s%n",
          r.operation(), r.state(), r.unit(), r.opsPerS(), error, r.bytesPerOp(), r.note());
    }
  }
}
