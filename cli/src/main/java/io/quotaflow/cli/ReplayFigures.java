package io.quotaflow.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * One measured replay of {@code quotaflow bench replay}: what it read and compared, and the wall
 * seconds of each stage. Rates are input records (samples and configs) per second of the stage, so
 * the stages compare with each other and with the end to end.
 *
 * @param inputRecords input records read (configs in force at the start included)
 * @param samples of which samples
 * @param recordedCpuDecisions cpu-decisions the live app recorded in the range
 * @param recordedFreezeDecisions freeze-decisions it recorded
 * @param tasks tasks the report compares
 * @param exactTasks of which the replay can reproduce bit for bit
 * @param identicalTasks tasks whose replayed cpu and freeze decisions equal the recorded ones
 * @param differences the first few differing tasks' first difference, in words, so a mismatch shows what it is
 */
record ReplayFigures(long inputRecords, long samples, long recordedCpuDecisions, long recordedFreezeDecisions, int tasks,
    int exactTasks, int identicalTasks, List<String> differences, double readSeconds, double mergeSeconds, double replaySeconds, double reportSeconds) {

  double endToEndSeconds() {
    return readSeconds + mergeSeconds + replaySeconds + reportSeconds;
  }

  double perSecond(double seconds) {
    return inputRecords / seconds;
  }

  void print(PrintWriter out, String title) {
    out.println(title);
    out.printf(Locale.ROOT, "  input records:      %,d (%,d samples)%n", inputRecords, samples);
    out.printf(Locale.ROOT, "  decisions recorded: %,d cpu, %,d freeze%n", recordedCpuDecisions, recordedFreezeDecisions);
    stage(out, "read", readSeconds);
    stage(out, "merge", mergeSeconds);
    stage(out, "replay", replaySeconds);
    stage(out, "report", reportSeconds);
    stage(out, "end to end", endToEndSeconds());
    out.printf(Locale.ROOT, "  identical: %,d of %,d tasks (%,d exact)%n", identicalTasks, tasks, exactTasks);
    differences.forEach(d -> out.println("  differs: " + d));
    out.flush();
  }

  private void stage(PrintWriter out, String name, double seconds) {
    out.printf(Locale.ROOT, "  %-11s %8.3f s %,12.0f records/s%n", name + ":", seconds, perSecond(seconds));
  }

  /** Min, median and max records/s of each stage over several runs of the same recording. */
  static void printSpread(PrintWriter out, List<ReplayFigures> runs) {
    out.printf(Locale.ROOT, "over %d runs, records/s min / median / max:%n", runs.size());
    spread(out, runs, "read", ReplayFigures::readSeconds);
    spread(out, runs, "merge", ReplayFigures::mergeSeconds);
    spread(out, runs, "replay", ReplayFigures::replaySeconds);
    spread(out, runs, "report", ReplayFigures::reportSeconds);
    spread(out, runs, "end to end", ReplayFigures::endToEndSeconds);
    out.flush();
  }

  private static void spread(PrintWriter out, List<ReplayFigures> runs, String name, ToDoubleFunction<ReplayFigures> seconds) {
    double[] rates = runs.stream().mapToDouble(r -> r.perSecond(seconds.applyAsDouble(r))).sorted().toArray();
    out.printf(Locale.ROOT, "  %-11s %,12.0f / %,12.0f / %,12.0f%n", name + ":", rates[0], median(rates), rates[rates.length - 1]);
  }

  static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
