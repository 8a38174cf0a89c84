package io.quotaflow.cli.replay;

import io.quotaflow.cli.replay.ReplayReport.Advice;
import io.quotaflow.cli.replay.ReplayReport.Candidate;
import io.quotaflow.process.UsageException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code replay --advise cpu}: searches the job CPU monitor's parameters over the recorded range
 * for the setting that reclaims the most CPU-seconds without adding more over-limit seconds than the
 * user allows. Each candidate is a whole replay of the range with {@code task.*.job_cpu_monitor.…}
 * overrides on top of the user's own, so every figure can be reproduced with {@code --set}. The
 * search is coordinate ascent, two rounds over the parameters (a few dozen replays, not the grid's
 * thousands): each parameter in turn takes the value that reclaims most within the bound, holding
 * the others.
 */
public final class CpuAdvisor {

  private static final String PREFIX = "task." + Overrides.EVERY_TASK + ".job_cpu_monitor.";
  private static final int ROUNDS = 2;

  /** One parameter and the values tried; a value may set several fields at once (window size with its threshold). */
  record Parameter(String name, List<List<String>> values) {}

  static final List<Parameter> PARAMETERS = List.of(
      single("smoothing_factor", "0.05", "0.1", "0.2", "0.3", "0.5"),
      single("relative_lower_bound", "0.4", "0.5", "0.6", "0.7", "0.8"),
      single("relative_upper_bound", "0.8", "0.85", "0.9", "0.95"),
      single("decrease_coefficient", "0.9", "0.95", "0.97", "0.99"),
      single("increase_coefficient", "1.2", "1.45", "1.7", "2.0"),
      new Parameter("vote_window_size", List.of(window(3, 2), window(5, 3), window(8, 5), window(10, 6))));

  private static Parameter single(String field, String... values) {
    List<List<String>> sets = new ArrayList<>();
    for (String v : values) {
      sets.add(List.of(PREFIX + field + "=" + v));
    }
    return new Parameter(field, sets);
  }

  private static List<String> window(int size, int threshold) {
    return List.of(PREFIX + "vote_window_size=" + size, PREFIX + "vote_decision_threshold=" + threshold);
  }

  /** Runs one replay with extra overrides and returns its totals; the command gives the real one. */
  public interface Replayer {
    ReportBuilder.Totals replay(Overrides overrides);
  }

  private CpuAdvisor() {}

  /**
   * @param base the user's own overrides, under every candidate
   * @param maxAddedOverLimitSeconds how many over-limit seconds a candidate may add to the baseline's
   * @param progress told of each replay ("advisor: 12 replays")
   */
  public static Advice advise(Overrides base, double maxAddedOverLimitSeconds, Replayer replayer, Consumer<Integer> progress) {
    ReportBuilder.Totals baseline = replayer.replay(base);
    double bound = baseline.overLimitSeconds() + maxAddedOverLimitSeconds;
    Map<List<String>, Candidate> tried = new LinkedHashMap<>();
    Map<String, List<String>> chosen = new LinkedHashMap<>();
    for (int round = 0; round < ROUNDS; round++) {
      for (Parameter parameter : PARAMETERS) {
        Candidate best = null;
        List<String> bestValue = null;
        for (List<String> value : parameter.values()) {
          Map<String, List<String>> trial = new LinkedHashMap<>(chosen);
          trial.put(parameter.name(), value);
          List<String> sets = trial.values().stream().flatMap(List::stream).toList();
          Candidate candidate = tried.get(sets);
          if (candidate == null) {
            candidate = run(base, sets, bound, replayer);
            if (candidate == null) {
              continue; // the combination is invalid (a lower bound above the upper one): not a setting
            }
            tried.put(sets, candidate);
            progress.accept(tried.size());
          }
          if (candidate.withinBound() && (best == null || candidate.reclaimedCpuSeconds() > best.reclaimedCpuSeconds())) {
            best = candidate;
            bestValue = value;
          }
        }
        if (bestValue != null) {
          chosen.put(parameter.name(), bestValue);
        }
      }
    }
    List<Candidate> ranked = new ArrayList<>(tried.values());
    ranked.sort(Comparator.comparing((Candidate c) -> !c.withinBound())
        .thenComparing(Comparator.comparingDouble(Candidate::reclaimedCpuSeconds).reversed())
        .thenComparingDouble(Candidate::overLimitSeconds)
        .thenComparingInt(c -> c.sets().size())); // of two settings that replay alike, the one that changes less
    return new Advice(maxAddedOverLimitSeconds,
        new Candidate(List.of(), baseline.reclaimedCpuSeconds(), baseline.overLimitSeconds(), true), ranked);
  }

  private static Candidate run(Overrides base, List<String> sets, double bound, Replayer replayer) {
    Overrides overrides;
    try {
      overrides = base.and(sets);
    } catch (UsageException invalid) {
      return null;
    }
    ReportBuilder.Totals totals;
    try {
      totals = replayer.replay(overrides);
    } catch (UsageException invalidForARecordedSpec) {
      return null;
    }
    return new Candidate(sets, totals.reclaimedCpuSeconds(), totals.overLimitSeconds(), totals.overLimitSeconds() <= bound + 1e-9);
  }
}
