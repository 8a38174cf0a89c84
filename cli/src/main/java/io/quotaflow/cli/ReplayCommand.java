package io.quotaflow.cli;

import io.quotaflow.cli.replay.CpuAdvisor;
import io.quotaflow.cli.replay.InputMerge;
import io.quotaflow.cli.replay.InputRecord;
import io.quotaflow.cli.replay.Overrides;
import io.quotaflow.cli.replay.RecordedTopics;
import io.quotaflow.cli.replay.Recording;
import io.quotaflow.cli.replay.ReplayReport;
import io.quotaflow.cli.replay.ReplayRun;
import io.quotaflow.cli.replay.ReplaySummary;
import io.quotaflow.cli.replay.ReplayTimes;
import io.quotaflow.cli.replay.ReportBuilder;
import io.quotaflow.cli.replay.ReportHtml;
import io.quotaflow.cli.replay.ReportJson;
import io.quotaflow.process.ClusterConnection;
import io.quotaflow.process.Durations;
import io.quotaflow.process.ProcessCommandLine;
import io.quotaflow.process.ProcessException;
import io.quotaflow.process.UsageException;
import io.quotaflow.schemas.Ids;
import io.quotaflow.schemas.Topics;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code quotaflow replay}: an incident's recorded topics through the real topology again, diffed, with what-ifs (docs/replay.md). */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description = {
        "Re-run the real streams topology offline over a recorded range of the input topics (samples, task-specs, nodes,"
            + " cluster-config, pool-configs), diff its decisions with the recorded cpu-decisions, freeze-decisions and pool-state,"
            + " and write a self-contained HTML report with a JSON file beside it.",
        "Reads only: no consumer group, no commit, nothing produced; the topology runs in memory (as simulate runs it).",
        "Inputs are read from --from minus --warmup, with the configs in force then; decisions are compared from --from to --to.",
        "A task is replayed exactly when its whole life is within the input read; the report says per task if it is, and why not.",
        "What if: --set cluster.FIELD=VALUE, pool.POOL.FIELD=VALUE, task.NODE/TASK.FIELD=VALUE or task.*.FIELD=VALUE (every task),"
            + " the operator tools' field names and checks (quotaflow cluster|pool|spec set --help list them), applied to every"
            + " recorded record of that config.",
        "Example: quotaflow replay --from 2026-11-26T06:40:00Z --to 2026-11-26T07:10:00Z --set cluster.peak_gating_mode=BUDGET"},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:the report was written",
        "1:a runtime failure: the broker or registry could not be read, the range holds no samples, the report not written",
        "2:a usage error: a bad flag, time, --set key or value; nothing was read or written",
        "3:the report was written, and with unchanged parameters some exact task's replayed decisions differ from the recorded ones"})
final class ReplayCommand implements Callable<Integer> {

  static final int EXACT_TASKS_DIFFER = 3;
  static final Duration DEFAULT_WARMUP = Duration.ofMinutes(5);

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Mixin
  ClusterConnection connection;

  @Option(names = "--from", required = true, paramLabel = "TIME", description = "Start of the compared range: " + ReplayTimes.FORMS + ".")
  String from;

  @Option(names = "--to", defaultValue = "now", paramLabel = "TIME", description = "End of the compared range, exclusive (default ${DEFAULT-VALUE}).")
  String to;

  @Option(names = "--warmup", paramLabel = "DURATION", defaultValue = "5m", converter = Durations.Converter.class,
      description = "Inputs read before --from to rebuild the state in force there (default ${DEFAULT-VALUE}: the monitor's vote"
          + " window of 5 checks and its smoothing, factor 0.1 a check, forget their start long before; pool volumes, built over"
          + " pool_capacity_saturation_period_s, need the pool's whole history: make it as long as the recording).")
  Duration warmup;

  @Option(names = "--nodes", split = ",", paramLabel = "NODE", description = "Only these nodes (their partitions are read, nothing else).")
  List<String> nodes = List.of();

  @Option(names = "--pools", split = ",", paramLabel = "POOL",
      description = "Only report the tasks of these pools and these pools (every task is still replayed: shares depend on all).")
  List<String> pools = List.of();

  @Option(names = "--set", paramLabel = "KEY=VALUE", description = "A what-if override (repeatable), see above.")
  List<String> sets = List.of();

  @Option(names = "--report", paramLabel = "FILE", defaultValue = "replay-report.html",
      description = "The HTML report (default ${DEFAULT-VALUE}); the JSON goes beside it, FILE with .json for .html.")
  Path report;

  @Option(names = "--advise", paramLabel = "cpu", description = "Search the job CPU monitor's parameters over the range (only 'cpu').")
  String advise;

  @Option(names = "--max-added-over-limit", paramLabel = "DURATION", defaultValue = "60s", converter = Durations.Converter.class,
      description = "With --advise: over-limit seconds (usage above the effective limit, summed over tasks) a setting may add to the"
          + " baseline's (default ${DEFAULT-VALUE}).")
  Duration maxAddedOverLimit;

  @Option(names = "--no-progress", description = "No progress bar on standard error (there is none when it is not a terminal).")
  boolean noProgress;

  @Override
  public Integer call() {
    Instant now = Instant.now();
    Instant fromTime = time("--from", from, now);
    Instant toTime = time("--to", to, now);
    if (!fromTime.isBefore(toTime)) {
      throw new UsageException("--from " + fromTime + " is not before --to " + toTime);
    }
    if (advise != null && !advise.equals("cpu")) {
      throw new UsageException("--advise " + advise + ": only 'cpu' can be advised");
    }
    nodes.forEach(n -> requireId("--nodes", n));
    pools.forEach(p -> requireId("--pools", p));
    Overrides overrides = Overrides.parse(sets);
    Path json = jsonBeside(report);
    requireWritable(report);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    String prefix = "quotaflow replay: ";
    long readFromMs = fromTime.minus(warmup).toEpochMilli();

    var registry = connection.registryClient();
    Topics topics = connection.topics(registry);
    long readStart = System.nanoTime();
    ProgressBar bar = new ProgressBar(err, !noProgress && System.console() != null);
    Recording recording = new RecordedTopics(connection.clientProperties(), topics, bar)
        .read(readFromMs, fromTime.toEpochMilli(), toTime.toEpochMilli(), new TreeSet<>(nodes));
    bar.done();
    double readSeconds = (System.nanoTime() - readStart) / 1e9;
    List<InputRecord> merged = InputMerge.merge(recording.inputs());
    ReportBuilder.Inputs inputs = new ReportBuilder.Inputs(merged, readFromMs, fromTime.toEpochMilli(), toTime.toEpochMilli());
    if (inputs.isEmpty()) {
      throw new ProcessException("no samples in " + topics.samples().name() + " from " + fromTime + " to " + toTime
          + (nodes.isEmpty() ? "" : " on nodes " + String.join(",", nodes)) + " at " + connection.bootstrap() + "; nothing was replayed");
    }

    long replayStart = System.nanoTime();
    ReplayRun.Replayed replayed = ReplayRun.run(merged, overrides, recording.partitions(), readFromMs, toTime.toEpochMilli());
    double replaySeconds = (System.nanoTime() - replayStart) / 1e9;
    ReplayReport.Advice advice = null;
    if (advise != null) {
      advice = CpuAdvisor.advise(overrides, maxAddedOverLimit.toMillis() / 1000.0,
          candidate -> ReportBuilder.totals(inputs, ReplayRun.run(merged, candidate, recording.partitions(), readFromMs, toTime.toEpochMilli()).cpu()),
          n -> bar.note("advisor: " + n + " replays"));
      bar.done();
    }
    ReplayReport result = ReportBuilder.build(recording, inputs, replayed, overrides,
        new ReportBuilder.Context(connection.bootstrap(), connection.topicPrefix(), nodes, pools, readSeconds, replaySeconds), advice);
    try {
      ReportHtml.write(result, report);
      ReportJson.write(result, json);
    } catch (java.io.IOException e) {
      throw new ProcessException("cannot write the report " + report + ": " + e.getMessage(), e);
    }
    ReplaySummary.print(out, result, report, json);
    out.flush();
    boolean exactDiffer = overrides.isEmpty() && result.tasks().stream()
        .anyMatch(t -> t.exactness().exact() && !(t.cpu().identical() && t.freeze().identical()));
    if (exactDiffer) {
      err.println(prefix + "with unchanged parameters, exact tasks differ from the recording (see the report)");
      err.flush();
    }
    return exactDiffer ? EXACT_TASKS_DIFFER : ProcessCommandLine.OK;
  }

  private static Instant time(String flag, String text, Instant now) {
    try {
      return ReplayTimes.parse(text, now);
    } catch (IllegalArgumentException e) {
      throw new UsageException(flag + " " + e.getMessage());
    }
  }

  private static void requireId(String flag, String id) {
    if (!Ids.isValid(id)) {
      throw new UsageException(flag + ": invalid id '" + id + "': ids match " + Ids.PATTERN_TEXT);
    }
  }

  static Path jsonBeside(Path html) {
    String name = html.getFileName().toString();
    String base = name.toLowerCase(Locale.ROOT).endsWith(".html") ? name.substring(0, name.length() - 5) : name;
    return html.resolveSibling(base + ".json");
  }

  /** Checked before anything is read, so an hour of reading does not end in "cannot write". */
  private static void requireWritable(Path file) {
    if (Files.isDirectory(file)) {
      throw new UsageException("--report " + file + ": is a directory");
    }
    Path parent = file.toAbsolutePath().getParent();
    if (parent == null || !Files.isDirectory(parent)) {
      throw new UsageException("--report " + file + ": no such directory " + (file.getParent() == null ? parent : file.getParent()));
    }
    if (!Files.isWritable(parent) || (Files.exists(file) && !Files.isWritable(file))) {
      throw new UsageException("--report " + file + ": not writable (permission denied)");
    }
  }

  /** Records read of the total, drawn over itself on a terminal; silent elsewhere. */
  static final class ProgressBar implements RecordedTopics.Progress {
    private static final int WIDTH = 30;
    private final PrintWriter err;
    private final boolean terminal;
    private long lastDrawNs;
    private boolean drawn;

    ProgressBar(PrintWriter err, boolean terminal) {
      this.err = err;
      this.terminal = terminal;
    }

    @Override
    public void update(long read, long total) {
      long nowNs = System.nanoTime();
      if (!terminal || (nowNs - lastDrawNs < 100_000_000L && read < total)) {
        return;
      }
      lastDrawNs = nowNs;
      int filled = total == 0 ? WIDTH : (int) (WIDTH * read / total);
      err.printf("\rreading topics [%s%s] %3d%% %,d/%,d records", "#".repeat(filled), " ".repeat(WIDTH - filled),
          total == 0 ? 100 : 100 * read / total, read, total);
      err.flush();
      drawn = true;
    }

    void note(String text) {
      if (terminal) {
        err.print("\r" + text + "        ");
        err.flush();
        drawn = true;
      }
    }

    void done() {
      if (drawn) {
        err.println();
        err.flush();
        drawn = false;
      }
    }
  }
}
