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
import java.util.stream.LongStream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code quotaflow bench memory}: seed 004's experiment, run on the real {@code PeakGate}. */
@Command(
    name = "memory",
    mixinStandardHelpOptions = true,
    description = {
        "Seed 004's memory experiment on the real PeakGate, gated OFF, COUNT and BUDGET, at several control delays.",
        "Six poorly behaved tasks on a 4500 MB node. Prints node memory and task slowdown; writes SVG charts.",
        "--reflex-hz models the enforcer's reflex; --frontier searches BUDGET's admission rules (issue 21)."
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

  @Option(names = "--reserve", paramLabel = "F", defaultValue = "0",
      description = "BUDGET: reserve fraction f in [0, 1]; every other task that does not hold counts at usage + "
          + "f·(threshold − usage). 0 is DESIGN §4's rule (default: ${DEFAULT-VALUE}).")
  double reserve;

  @Option(names = "--reflex-hz", paramLabel = "HZ", defaultValue = "0",
      description = "Model the enforcer's reflex reading memory HZ times a second (dividing 1000); adds COUNT and "
          + "BUDGET rows with the reflex at every delay. 0 = no reflex (default: ${DEFAULT-VALUE}).")
  int reflexHz;

  @Option(names = "--reflex-latency-ms", paramLabel = "MS", defaultValue = "0",
      description = "From the reflex's reading to the freeze holding, e.g. the measured p99 (default: ${DEFAULT-VALUE}).")
  long reflexLatencyMs;

  @Option(names = "--reflex-lease-ms", paramLabel = "MS", defaultValue = "10000",
      description = "The reflex lease: a reflex freeze neither adopted nor overruled thaws after it "
          + "(default: ${DEFAULT-VALUE}).")
  long reflexLeaseMs;

  @Option(names = "--frontier", description = "Also search BUDGET's admission rules (--reserves × --frontier-headroom-mb, "
      + "and COUNT) over seeds 1..--frontier-seeds at each of --frontier-delays, with the reflex of --reflex-hz; prints "
      + "the worst node memory against mean slowdown and writes a chart of the frontier per delay.")
  boolean frontier;

  @Option(names = "--reserves", paramLabel = "F[,...]", split = ",",
      defaultValue = "0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1",
      description = "Frontier: reserve fractions (default: ${DEFAULT-VALUE}).")
  List<Double> reserves;

  @Option(names = "--frontier-headroom-mb", paramLabel = "MB[,...]", split = ",", defaultValue = "0,100,200,300",
      description = "Frontier: headrooms (default: ${DEFAULT-VALUE}).")
  List<Long> frontierHeadroomMb;

  @Option(names = "--frontier-seeds", paramLabel = "N", defaultValue = "40",
      description = "Frontier: seeds 1..N (default: ${DEFAULT-VALUE}).")
  int frontierSeeds;

  @Option(names = "--frontier-delays", paramLabel = "N[,...]", split = ",", defaultValue = "0,1",
      description = "Frontier: control delays in ticks (default: ${DEFAULT-VALUE}).")
  List<Integer> frontierDelays;

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
    MemoryExperiment experiment = new MemoryExperiment(tasks, shape, budgetMb, headroomMb, slots, reserve);
    TaskKnowledge knowledge = knowledge(experiment);
    MemoryExperiment.Reflex reflex = reflexHz == 0 ? MemoryExperiment.Reflex.OFF
        : new MemoryExperiment.Reflex(reflexHz, reflexLatencyMs, reflexLeaseMs);

    out.printf(Locale.ROOT, "quotaflow bench memory: seed 004's experiment on the real PeakGate%n");
    out.printf(Locale.ROOT, "%d tasks, budget %d MB, baseline %d±%d MB, peaks to %d MB and back over %d ticks, "
            + "%d peaks to finish,%npeak start probability 0.02 + 0.015·sin(2πt/500) per tick; threshold 1.1, "
            + "release 1.05; COUNT slots %d; BUDGET headroom %d MB, reserve %.2f;%n%s%s; seeds %s; "
            + "1 MB = 2^20 bytes%n",
        tasks, budgetMb, shape.baselineMib(), shape.noiseMib(), shape.peakMib(), shape.rampTicks(),
        shape.peaksToFinish(), slots, headroomMb, reserve, knowledge.label(),
        knowledge.declared() ? " in every spec" : " (profile of ungated runs of seeds " + TRAINING_SEEDS + ")",
        seeds);
    if (reflex.on()) {
      out.printf(Locale.ROOT, "reflex: %d readings/s, freeze %d ms after the reading, lease %d ms%n",
          reflex.hz(), reflex.latencyMs(), reflex.leaseMs());
    }
    out.println();

    Map<Long, MemoryRun> ungated = ungated(experiment, seeds, knowledge);
    List<MemoryFigures> figures = new ArrayList<>();
    figures.add(MemoryFigures.of(new ArrayList<>(ungated.values()), ungated, budgetMb));
    List<MemoryExperiment.Reflex> reflexes =
        reflex.on() ? List.of(MemoryExperiment.Reflex.OFF, reflex) : List.of(MemoryExperiment.Reflex.OFF);
    for (int delay : delays) {
      for (MemoryExperiment.Reflex r : reflexes) {
        for (GatingMode mode : List.of(GatingMode.COUNT, GatingMode.BUDGET)) {
          List<MemoryRun> runs = new ArrayList<>();
          for (long seed : seeds) {
            runs.add(experiment.run(mode, delay, seed, knowledge, r));
          }
          figures.add(MemoryFigures.of(runs, ungated, budgetMb));
        }
      }
    }
    printTable(out, figures);
    printTargets(out, figures);
    if (reflex.on()) {
      printReflexTargets(out, figures);
    }

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
    if (frontier) {
      printFrontier(out, experiment, knowledge, reflex);
    }
    out.flush();
    return 0;
  }

  private static Map<Long, MemoryRun> ungated(MemoryExperiment experiment, List<Long> seeds, TaskKnowledge knowledge) {
    Map<Long, MemoryRun> ungated = new HashMap<>();
    for (long seed : seeds) {
      ungated.put(seed, experiment.run(GatingMode.OFF, 0, seed, knowledge));
    }
    return ungated;
  }

  /** Issue 21, item 5: every rule over seeds 1..N at each frontier delay, its table and its chart. */
  private void printFrontier(PrintWriter out, MemoryExperiment experiment, TaskKnowledge knowledge,
      MemoryExperiment.Reflex reflex) throws Exception {
    List<Long> frontierSeedList = LongStream.rangeClosed(1, frontierSeeds).boxed().toList();
    Map<Long, MemoryRun> ungated = ungated(experiment, frontierSeedList, knowledge);
    String reflexText = reflex.on()
        ? String.format(Locale.ROOT, "reflex %d Hz, +%d ms", reflex.hz(), reflex.latencyMs()) : "no reflex";
    for (int delay : frontierDelays) {
      List<MemoryFrontier.Point> points = new ArrayList<>();
      points.add(new MemoryFrontier.Point(GatingMode.COUNT, 0, 0,
          figures(experiment, GatingMode.COUNT, delay, frontierSeedList, knowledge, reflex, ungated)));
      for (long headroom : frontierHeadroomMb) {
        for (double fraction : reserves) {
          MemoryExperiment rule = experiment.withRule(fraction, headroom);
          points.add(new MemoryFrontier.Point(GatingMode.BUDGET, fraction, headroom,
              figures(rule, GatingMode.BUDGET, delay, frontierSeedList, knowledge, reflex, ungated)));
        }
      }
      List<MemoryFrontier.Point> front = MemoryFrontier.frontier(points);
      out.printf(Locale.ROOT, "%nAdmission rules, seeds 1-%d, control delay %d tick(s), %s "
              + "(* on the frontier, + within %d MB and %.1fx):%n",
          frontierSeeds, delay, reflexText, budgetMb, MemoryFrontier.SLOWDOWN_GOAL);
      out.printf(Locale.ROOT, "  %-32s %9s %6s %7s %14s %13s %15s%n",
          "rule", "worst MB", "seed", "p99 MB", "slowdown mean", "slowdown max", "reflex freezes");
      for (MemoryFrontier.Point p : points) {
        MemoryFigures f = p.figures();
        out.printf(Locale.ROOT, "%s%s%-32s %9d %6d %7d %14.4f %13.2f %15d%n",
            front.contains(p) ? "*" : " ", p.meetsGoal(budgetMb) ? "+" : " ", p.rule(), f.maxMib(), f.worstSeed(),
            f.p99Mib(), f.meanSlowdown(), f.maxSlowdown(), f.reflexFreezes());
      }
      MemoryFrontier.Point best = MemoryFrontier.best(points, budgetMb);
      out.printf(Locale.ROOT, "  Goal (<= %d MB on every seed at mean slowdown <= %.1fx): %s%n", budgetMb,
          MemoryFrontier.SLOWDOWN_GOAL, best == null ? "no rule reaches it"
              : String.format(Locale.ROOT, "met by %s (%d MB, %.4fx)", best.rule(), best.figures().maxMib(),
                  best.figures().meanSlowdown()));
      Path file = outDir.resolve("memory-frontier-delay-" + delay + ".svg");
      MemoryFrontier.writeChart(file, String.format(Locale.ROOT,
              "Admission rules: worst node memory over seeds 1-%d against mean slowdown", frontierSeeds),
          String.format(Locale.ROOT, "%d tasks, %s, control delay %d tick(s), %s; %d rules, %d on the frontier",
              tasks, knowledge.label(), delay, reflexText, points.size(), front.size()),
          front, budgetMb);
      out.printf(Locale.ROOT, "  %s%n", file.toAbsolutePath().normalize());
    }
  }

  private static MemoryFigures figures(MemoryExperiment experiment, GatingMode mode, int delay, List<Long> seeds,
      TaskKnowledge knowledge, MemoryExperiment.Reflex reflex, Map<Long, MemoryRun> ungated) {
    List<MemoryRun> runs = new ArrayList<>();
    for (long seed : seeds) {
      runs.add(experiment.run(mode, delay, seed, knowledge, reflex));
    }
    return MemoryFigures.of(runs, ungated, experiment.budgetMib());
  }

  /** Issue 21's goal for the reflex: BUDGET within the budget at every delay once the reflex acts. */
  private void printReflexTargets(PrintWriter out, List<MemoryFigures> figures) {
    out.printf(Locale.ROOT, "%nWith the reflex (%d Hz):%n", reflexHz);
    for (int delay : delays) {
      MemoryFigures without = find(figures, GatingMode.BUDGET, delay, 0);
      MemoryFigures with = find(figures, GatingMode.BUDGET, delay, reflexHz);
      out.printf(Locale.ROOT, "  BUDGET max <= %d MB at delay %d: %d MB (without the reflex %d MB): %s%n",
          budgetMb, delay, with.maxMib(), without.maxMib(), with.maxMib() <= budgetMb ? "met" : "MISSED");
    }
    for (int delay : delays) {
      MemoryFigures count = find(figures, GatingMode.COUNT, delay, reflexHz);
      MemoryFigures budget = find(figures, GatingMode.BUDGET, delay, reflexHz);
      out.printf(Locale.ROOT, "  Reflex freezes thawed by their lease running out at delay %d: COUNT %d of %d, "
          + "BUDGET %d of %d%n", delay, count.reflexLeasesRunOut(), count.reflexFreezes(),
          budget.reflexLeasesRunOut(), budget.reflexFreezes());
    }
  }

  private TaskKnowledge knowledge(MemoryExperiment experiment) {
    if (normal == NormalSource.declared) {
      return TaskKnowledge.declared(experiment.shape());
    }
    return TaskKnowledge.learned(experiment.shape(), experiment.learnProfiles(TRAINING_SEEDS));
  }

  private static void printTable(PrintWriter out, List<MemoryFigures> figures) {
    out.printf(Locale.ROOT, "%-7s %5s %6s %7s %7s %8s %9s %14s %13s %14s %8s%n",
        "mode", "delay", "reflex", "max MB", "p99 MB", "over MB", "% ticks", "slowdown mean", "slowdown max",
        "max wait s", "reflex");
    out.printf(Locale.ROOT, "%-7s %5s %6s %7s %7s %8s %9s %14s %13s %14s %8s%n",
        "", "ticks", "Hz", "", "", "budget", "> budget", "vs OFF", "vs OFF", "(queue head)", "freezes");
    for (MemoryFigures f : figures) {
      out.printf(Locale.ROOT, "%-7s %5s %6s %7d %7d %8d %9.2f %14.2f %13.2f %14d %8d%n",
          f.mode(), f.mode() == GatingMode.OFF ? "-" : Integer.toString(f.delayTicks()),
          f.reflexHz() == 0 ? "-" : Integer.toString(f.reflexHz()), f.maxMib(), f.p99Mib(),
          f.overshootMib(), f.ticksOverBudgetPercent(), f.meanSlowdown(), f.maxSlowdown(),
          f.maxHeadWaitMs() / MemoryExperiment.TICK_MS, f.reflexFreezes());
    }
  }

  /** The targets at delay 0, judged from the figures rather than asserted anywhere. */
  private void printTargets(PrintWriter out, List<MemoryFigures> figures) {
    MemoryFigures count = find(figures, GatingMode.COUNT, 0, 0);
    MemoryFigures budget = find(figures, GatingMode.BUDGET, 0, 0);
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

  private static MemoryFigures find(List<MemoryFigures> figures, GatingMode mode, int delay, int reflexHz) {
    return figures.stream().filter(f -> f.mode() == mode && f.delayTicks() == delay && f.reflexHz() == reflexHz)
        .findFirst().orElse(null);
  }
}
