package io.quotaflow.benchmarks;

import io.quotaflow.streams.engine.memory.GatingMode;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code quotaflow bench memory}: seed 004's experiment, run on the real {@code PeakGate}. */
@Command(
    name = "memory",
    mixinStandardHelpOptions = true,
    description = {
        "Seed 004's memory experiment on the real PeakGate, gated OFF, COUNT and BUDGET, at several control delays.",
        "Six poorly behaved tasks on a 4500 MB node. Prints node memory and task slowdown; writes SVG charts."
    })
public final class MemoryBench implements Callable<Integer> {

  /** Ungated runs the learned profile comes from, apart from the seeds measured. */
  private static final List<Long> TRAINING_SEEDS = List.of(1001L, 1002L, 1003L, 1004L, 1005L);

  /** Where the gate's normal and peak come from. */
  enum NormalSource { declared, learned }

  @Option(names = "--seeds", paramLabel = "SEED[,...]", split = ",", defaultValue = "1,2,3,4,5", description = "Random seeds (default: ${DEFAULT-VALUE}).")
  List<Long> seeds;

  @Option(names = "--delays", paramLabel = "N[,...]", split = ",", defaultValue = "0,1,2",
      description = "Control delays in ticks between a sample and its decision taking effect (default: ${DEFAULT-VALUE}).")
  List<Integer> delays;

  @Option(names = "--normal", paramLabel = "learned|declared", defaultValue = "learned",
      description = "learned: specs name no normal and the gate uses the profile learned from ungated runs of seeds "
          + "1001-1005 (mean as normal, max as peak: the seed's own definition); declared: specs give the baseline "
          + "as normal and the top of a peak as peak (default: ${DEFAULT-VALUE}).")
  NormalSource normal;

  @Option(names = "--tasks", paramLabel = "N", defaultValue = "6", description = "Tasks on the node (default: ${DEFAULT-VALUE}).")
  int tasks;

  @Option(names = "--budget-mb", paramLabel = "MB", defaultValue = "4500", description = "Node memory, MB (default: ${DEFAULT-VALUE}).")
  long budgetMb;

  @Option(names = "--headroom-mb", paramLabel = "MB", defaultValue = "0",
      description = "BUDGET: memory kept free of admitted peaks, MB (default: ${DEFAULT-VALUE}).")
  long headroomMb;

  @Option(names = "--slots", paramLabel = "COUNT", defaultValue = "1", description = "COUNT: max concurrent peaks (default: ${DEFAULT-VALUE}).")
  int slots;

  @Option(names = "--chart-seed", paramLabel = "SEED", defaultValue = "1", description = "Seed whose runs are charted (default: ${DEFAULT-VALUE}).")
  long chartSeed;

  @Option(names = "--out-dir", paramLabel = "DIR", defaultValue = "target/bench-memory",
      description = "Where the SVG charts go (default: ${DEFAULT-VALUE}).")
  Path outDir;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    TaskShape shape = TaskShape.seed004();
    MemoryExperiment experiment = new MemoryExperiment(tasks, shape, budgetMb, headroomMb, slots);
    TaskKnowledge knowledge = knowledge(experiment);

    out.printf(Locale.ROOT, "quotaflow bench memory: seed 004's experiment on the real PeakGate%n");
    out.printf(Locale.ROOT, "%d tasks, budget %d MB, baseline %d±%d MB, peaks to %d MB and back over %d ticks, "
            + "%d peaks to finish,%npeak start probability 0.02 + 0.015·sin(2πt/500) per tick; threshold 1.1, "
            + "release 1.05; COUNT slots %d; BUDGET headroom %d MB;%n%s%s; seeds %s; 1 MB = 2^20 bytes%n%n",
        tasks, budgetMb, shape.baselineMib(), shape.noiseMib(), shape.peakMib(), shape.rampTicks(),
        shape.peaksToFinish(), slots, headroomMb, knowledge.label(),
        knowledge.declared() ? " in every spec" : " (profile of ungated runs of seeds " + TRAINING_SEEDS + ")",
        seeds);

    Map<Long, MemoryRun> ungated = new HashMap<>();
    for (long seed : seeds) {
      ungated.put(seed, experiment.run(GatingMode.OFF, 0, seed, knowledge));
    }
    List<MemoryFigures> figures = new ArrayList<>();
    figures.add(MemoryFigures.of(new ArrayList<>(ungated.values()), ungated, budgetMb));
    for (int delay : delays) {
      for (GatingMode mode : List.of(GatingMode.COUNT, GatingMode.BUDGET)) {
        List<MemoryRun> runs = new ArrayList<>();
        for (long seed : seeds) {
          runs.add(experiment.run(mode, delay, seed, knowledge));
        }
        figures.add(MemoryFigures.of(runs, ungated, budgetMb));
      }
    }
    printTable(out, figures);
    printTargets(out, figures);

    out.printf(Locale.ROOT, "%nCharts (seed %d, node memory per tick, OFF / COUNT / BUDGET):%n", chartSeed);
    for (int delay : delays) {
      List<MemoryRun> charted = new ArrayList<>();
      for (GatingMode mode : List.of(GatingMode.OFF, GatingMode.COUNT, GatingMode.BUDGET)) {
        charted.add(experiment.run(mode, mode == GatingMode.OFF ? 0 : delay, chartSeed, knowledge));
      }
      Path file = outDir.resolve("memory-gating-delay-" + delay + ".svg");
      MemoryChart.write(file, String.format(Locale.ROOT,
          "Node memory, %d tasks, seed %d, control delay %d tick(s), %s",
          tasks, chartSeed, delay, knowledge.label()), charted, budgetMb);
      out.printf(Locale.ROOT, "  %s%n", file.toAbsolutePath().normalize());
    }
    out.flush();
    return 0;
  }

  private TaskKnowledge knowledge(MemoryExperiment experiment) {
    if (normal == NormalSource.declared) {
      return TaskKnowledge.declared(experiment.shape());
    }
    return TaskKnowledge.learned(experiment.shape(), experiment.learnProfiles(TRAINING_SEEDS));
  }

  private static void printTable(PrintWriter out, List<MemoryFigures> figures) {
    out.printf(Locale.ROOT, "%-7s %5s %7s %7s %8s %9s %14s %13s %14s%n",
        "mode", "delay", "max MB", "p99 MB", "over MB", "% ticks", "slowdown mean", "slowdown max", "max wait s");
    out.printf(Locale.ROOT, "%-7s %5s %7s %7s %8s %9s %14s %13s %14s%n",
        "", "ticks", "", "", "budget", "> budget", "vs OFF", "vs OFF", "(queue head)");
    for (MemoryFigures f : figures) {
      out.printf(Locale.ROOT, "%-7s %5s %7d %7d %8d %9.2f %14.2f %13.2f %14d%n",
          f.mode(), f.mode() == GatingMode.OFF ? "-" : Integer.toString(f.delayTicks()), f.maxMib(), f.p99Mib(),
          f.overshootMib(), f.ticksOverBudgetPercent(), f.meanSlowdown(), f.maxSlowdown(),
          f.maxHeadWaitMs() / MemoryExperiment.TICK_MS);
    }
  }

  /** The targets at delay 0, judged from the figures rather than asserted anywhere. */
  private void printTargets(PrintWriter out, List<MemoryFigures> figures) {
    MemoryFigures count = find(figures, GatingMode.COUNT, 0);
    MemoryFigures budget = find(figures, GatingMode.BUDGET, 0);
    if (count == null || budget == null) {
      return;
    }
    out.printf(Locale.ROOT, "%nTargets at delay 0:%n");
    boolean countNear = Math.abs(count.maxMib() - 4000) <= 400;
    out.printf(Locale.ROOT, "  COUNT max near the seed's ~4000 MB (within 10%%): %d MB: %s%n",
        count.maxMib(), countNear ? "met" : "MISSED");
    out.printf(Locale.ROOT, "  BUDGET max <= %d MB: %d MB: %s%n",
        budgetMb, budget.maxMib(), budget.maxMib() <= budgetMb ? "met" : "MISSED");
    out.printf(Locale.ROOT, "  BUDGET mean slowdown <= 1.5x and below COUNT's (%.2fx): %.2fx: %s%n",
        count.meanSlowdown(), budget.meanSlowdown(),
        budget.meanSlowdown() <= 1.5 && budget.meanSlowdown() < count.meanSlowdown() ? "met" : "MISSED");
  }

  private static MemoryFigures find(List<MemoryFigures> figures, GatingMode mode, int delay) {
    return figures.stream().filter(f -> f.mode() == mode && f.delayTicks() == delay).findFirst().orElse(null);
  }
}
