package io.quotaflow.cli;

import io.quotaflow.cli.replay.InputMerge;
import io.quotaflow.cli.replay.InputRecord;
import io.quotaflow.cli.replay.Overrides;
import io.quotaflow.cli.replay.RecordedTopics;
import io.quotaflow.cli.replay.Recording;
import io.quotaflow.cli.replay.ReplayReport;
import io.quotaflow.cli.replay.ReplayRun;
import io.quotaflow.cli.replay.ReportBuilder;
import io.quotaflow.embedded.EmbeddedPair;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import io.quotaflow.schemas.registry.SchemaRegistryClients;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code quotaflow bench replay}: how fast {@code quotaflow replay} goes on this machine. Records a
 * synthetic cluster through the real streams app on an embedded broker and registry (free ports, a
 * temporary data directory), then times what a replay does with it — read the topics by time,
 * merge, run the topology offline, build the report — and checks that every task's decisions came
 * out as recorded. Lives in the cli, not the benchmarks module, because the replay classes do.
 */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description = {
        "quotaflow replay's records/s on this machine: a synthetic recording made by the real streams app on an embedded broker,"
            + " then read, merged, replayed and reported, each stage timed (see docs/benchmarks.md).",
        "Also checks that every task's replayed decisions are identical to the recorded ones (no pool is capped, nothing"
            + " precedes the read)."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:the figures were printed and every task's decisions were identical",
        "1:a runtime failure: the broker, the registry or the streams app",
        "2:a usage error",
        "3:the figures were printed, but some task's replayed decisions differ from the recorded ones"})
public final class ReplayBench implements Callable<Integer> {

  static final int DECISIONS_DIFFER = 3;
  private static final int SHOWN_DIFFERENCES = 5;

  @Option(names = "--tasks", paramLabel = "N", defaultValue = "2000", description = "Synthetic tasks (default: ${DEFAULT-VALUE}).")
  int tasks;

  @Option(names = "--nodes", paramLabel = "N", defaultValue = "100", description = "Nodes they are spread over (default: ${DEFAULT-VALUE}).")
  int nodes;

  @Option(names = "--seconds", paramLabel = "S", defaultValue = "120",
      description = "Seconds of 1 Hz samples per task, stamped up to the moment the feed starts (default: ${DEFAULT-VALUE}; at most 240:"
          + " the app refuses samples 5 minutes from the broker's time).")
  int seconds;

  @Option(names = "--partitions", paramLabel = "N", defaultValue = "12", description = "Partitions of every node-keyed topic (default: ${DEFAULT-VALUE}).")
  int partitions;

  @Option(names = "--runs", paramLabel = "N", defaultValue = "1",
      description = "Replays of the same recording, each timed; with more than one, min / median / max too (default: ${DEFAULT-VALUE}).")
  int runs;

  @Option(names = "--seed", paramLabel = "SEED", defaultValue = "1", description = "Seed of the workload's offsets and jitter (default: ${DEFAULT-VALUE}).")
  long seed;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (tasks < 1 || nodes < 1 || seconds < 1 || partitions < 1 || runs < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--tasks, --nodes, --seconds, --partitions and --runs must be positive");
    }
    if (nodes > tasks) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--nodes " + nodes + " is more than --tasks " + tasks);
    }
    if (seconds > 240) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--seconds " + seconds + ": at most 240, the recording's first samples must stay within 5 minutes of the broker's time");
    }
    PrintWriter out = spec.commandLine().getOut();
    out.printf(Locale.ROOT, "quotaflow bench replay: %,d tasks on %,d nodes, %d s of 1 Hz samples, %d partitions; %d cores,"
            + " max heap %,d MiB.%n", tasks, nodes, seconds, partitions, Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() >> 20);
    out.flush();
    List<ReplayFigures> figures = new ArrayList<>();
    try (EmbeddedPair pair = EmbeddedPair.start()) {
      Map<String, Object> client = Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, pair.bootstrapServers());
      String prefix = "bench-replay-" + UUID.randomUUID().toString().substring(0, 8) + ".";
      Topics.Settings settings = new Topics.Settings(prefix, partitions, true);
      out.println("Broker " + pair.bootstrapServers() + ", registry " + pair.registryUrl() + ", topics " + prefix + "*");
      out.flush();
      SchemaRegistryClient registry = SchemaRegistryClients.create(pair.registryUrl());
      ReplayRecorder.Recorded recorded = new ReplayRecorder(client, registry, Topics.create(settings, registry)).record(new ReplayWorkload(tasks, nodes, seed), seconds);
      out.printf(Locale.ROOT, "recording: %,d samples decided by the streams app in %.1f s%n", recorded.samples(), recorded.seconds());
      out.flush();
      for (int run = 1; run <= runs; run++) {
        ReplayFigures measured = measure(client, pair.registryUrl(), settings, recorded);
        measured.print(out, runs == 1 ? "replay:" : "replay, run " + run + " of " + runs + ":");
        figures.add(measured);
      }
    }
    if (runs > 1) {
      ReplayFigures.printSpread(out, figures);
    }
    boolean differ = figures.stream().anyMatch(f -> f.identicalTasks() != tasks || f.tasks() != tasks);
    if (differ) {
      PrintWriter err = spec.commandLine().getErr();
      err.println("quotaflow bench replay: not every task's replayed decisions are identical to the recorded ones (see above)");
      err.flush();
    }
    return differ ? DECISIONS_DIFFER : 0;
  }

  /** One replay as {@code quotaflow replay} does it, with a fresh registry client: a replay starts with no schema cached. */
  private static ReplayFigures measure(Map<String, Object> client, String registryUrl, Topics.Settings settings,
      ReplayRecorder.Recorded recorded) {
    Topics topics = Topics.create(new Topics.Settings(settings.prefix(), settings.partitions(), false),
        SchemaRegistryClients.create(registryUrl));
    long fromMs = recorded.readFromMs();
    long toMs = recorded.toMs();
    long start = System.nanoTime();
    Recording recording = new RecordedTopics(client, topics, (read, total) -> {}).read(fromMs, fromMs, toMs, Set.of());
    long read = System.nanoTime();
    List<InputRecord> merged = InputMerge.merge(recording.inputs());
    long mergedAt = System.nanoTime();
    ReplayRun.Replayed replayed = ReplayRun.run(merged, Overrides.NONE, recording.partitions(), fromMs, toMs);
    long replayedAt = System.nanoTime();
    ReplayReport report = ReportBuilder.build(recording, new ReportBuilder.Inputs(merged, fromMs, fromMs, toMs), replayed,
        Overrides.NONE, new ReportBuilder.Context(String.valueOf(client.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)),
            settings.prefix(), List.of(), List.of(), (read - start) / 1e9, (replayedAt - mergedAt) / 1e9), null);
    long reportedAt = System.nanoTime();
    return new ReplayFigures(merged.size(), merged.stream().filter(r -> r.kind() == InputRecord.Kind.SAMPLE).count(),
        recording.cpu().size(), recording.freeze().size(), report.tasks().size(),
        (int) report.tasks().stream().filter(t -> t.exactness().exact()).count(),
        (int) report.tasks().stream().filter(t -> t.cpu().identical() && t.freeze().identical()).count(),
        report.tasks().stream().filter(t -> !(t.cpu().identical() && t.freeze().identical())).limit(SHOWN_DIFFERENCES)
            .map(t -> t.key() + ": " + (t.cpu().identical() ? "freeze " + t.freeze().firstDifference() : "cpu " + t.cpu().firstDifference()))
            .toList(),
        (read - start) / 1e9, (mergedAt - read) / 1e9, (replayedAt - mergedAt) / 1e9, (reportedAt - replayedAt) / 1e9);
  }
}
