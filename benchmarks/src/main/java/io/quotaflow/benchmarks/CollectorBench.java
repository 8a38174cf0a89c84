package io.quotaflow.benchmarks;

import io.quotaflow.cgroups.CgroupVersion;
import io.quotaflow.cgroups.Cgroups;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.collector.CollectorMain;
import io.quotaflow.collector.CollectorSettings;
import io.quotaflow.embedded.EmbeddedPair;
import io.quotaflow.embedded.Ports;
import io.quotaflow.process.Durations;
import io.quotaflow.schemas.TopicAdmin;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.registry.SchemaRegistryClients;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code quotaflow bench collector}: the collector's own CPU on N real, empty cgroups. It creates
 * the groups under a unique parent, runs the collector as a separate JVM (so the broker's CPU is
 * not counted) against an embedded broker and registry in this process, lets it warm up, measures
 * the child's process CPU over the window, and removes the groups again, also on failure.
 */
@Command(
    name = "collector",
    mixinStandardHelpOptions = true,
    description = {
        "The collector's process CPU for N real empty cgroups sampled at 1 Hz (target: at most 2 %% of one core).",
        "With a list of counts (--groups 500,1000,2000,5000) it measures each in turn, prints the cost curve as one table"
            + " and writes it as an SVG chart to --out-dir.",
        "Needs writable cgroups (root). Runs the collector as a child JVM; the broker runs in this process."})
public final class CollectorBench implements Callable<Integer> {

  @Option(names = "--groups", paramLabel = "N", split = ",", defaultValue = "500",
      description = "Task groups to create and sample; a comma-separated list measures each count in turn"
          + " (default: ${DEFAULT-VALUE}).")
  List<Integer> groups;

  @Option(names = "--period", defaultValue = "1s", converter = Durations.Positive.class, paramLabel = "DURATION",
      description = "Sampling period (default: ${DEFAULT-VALUE}).")
  Duration period;

  @Option(names = "--warmup", defaultValue = "60s", converter = Durations.Positive.class, paramLabel = "DURATION",
      description = "Time before measuring, for the JIT (default: ${DEFAULT-VALUE}).")
  Duration warmup;

  @Option(names = "--duration", defaultValue = "5m", converter = Durations.Positive.class, paramLabel = "DURATION",
      description = "Measured window (default: ${DEFAULT-VALUE}).")
  Duration duration;

  @CommandLine.Mixin
  BenchCgroupTree tree;

  @Option(names = "--memory-stat-every", paramLabel = "N", defaultValue = "" + CollectorSettings.DEFAULT_MEMORY_STAT_EVERY,
      description = "The collector's --memory-stat-every; 1 reads memory.stat every round, the cost for groups whose"
          + " memory keeps moving (default: ${DEFAULT-VALUE}).")
  int memoryStatEvery;

  @Option(names = "--kafka-config", paramLabel = "FILE",
      description = "A properties file passed to the collector as its --kafka-config, e.g. with compression.type=lz4, to"
          + " compare the bytes its samples take on the broker (default: none, the collector's defaults).")
  Path kafkaConfig;

  @Option(names = "--jvm-opt", paramLabel = "OPTION",
      description = "An option for the collector's JVM, repeatable (default: none, the JVM's defaults).")
  List<String> jvmOptions = new ArrayList<>();

  @Option(names = "--out-dir", paramLabel = "DIR", defaultValue = "target/bench-collector",
      description = "Where the curve's chart collector-curve-v1.svg (or -v2) is written, for two or more counts"
          + " (default: ${DEFAULT-VALUE}).")
  Path outDir;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  private final HttpClient http = HttpClient.newHttpClient();

  /** A group count the collector could not be measured at; the bench goes on with the next. */
  private static final class PointFailed extends Exception {
    PointFailed(String message) {
      super(message);
    }
  }

  /**
   * A reader keeps its group's files open (docs/cgroups.md: 8 descriptors per group on v1, up to 7 on v2), and the
   * collector child inherits this process's limit: say so before a count that cannot fit.
   */
  static Optional<String> descriptorWarning(int groups, CgroupVersion version) {
    long limit = openFilesLimit();
    int perGroup = version == CgroupVersion.V1 ? 8 : 7;
    long needed = (long) perGroup * groups;
    if (limit <= 0 || needed < limit) {
      return Optional.empty();
    }
    return Optional.of(String.format(Locale.ROOT, "quotaflow bench collector: warning: %,d groups need up to %,d open files"
        + " (up to %d per group on %s; fewer where a controller is missing), at or above the limit of %,d (ulimit -Hn):"
        + " the collector may not open them all.", groups, needed, perGroup, version.name().toLowerCase(Locale.ROOT), limit));
  }

  /** The hard limit on open files from /proc/self/limits (a JVM raises its soft limit to it), or -1 when unknown. */
  private static long openFilesLimit() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
        if (line.startsWith("Max open files")) {
          String[] fields = line.substring("Max open files".length()).trim().split("\\s+");
          return fields[1].equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(fields[1]);
        }
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return -1;
  }

  /** The cgroups were not writable: the bench says so and exits 1. */
  private static final class NoCgroups extends Exception {
    NoCgroups(Exception cause) {
      super(cause.getMessage(), cause);
    }
  }

  @Override
  public Integer call() throws Exception {
    if (groups.isEmpty() || groups.stream().anyMatch(n -> n < 1)) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--groups: every count must be at least 1, was " + groups);
    }
    if (kafkaConfig != null && !Files.isReadable(kafkaConfig)) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--kafka-config: cannot read " + kafkaConfig);
    }
    PrintWriter out = spec.commandLine().getOut();
    List<CollectorCurve.Point> points = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    CgroupVersion version = null;
    EmbeddedPair pair = null;
    try {
      for (int count : groups) {
        Run point = new Run(count);
        try {
          point.openCgroups();
        } catch (NoCgroups e) {
          spec.commandLine().getErr().println("quotaflow bench collector: needs writable cgroups (root): " + e.getMessage());
          return 1;
        }
        version = point.cgroups.version();
        if (pair == null) {
          pair = EmbeddedPair.start(); // after the first parent: without cgroups the bench starts no broker
        }
        descriptorWarning(count, point.cgroups.version()).ifPresent(out::println);
        try {
          points.add(point.measure(pair, out));
        } catch (PointFailed e) {
          // One count that cannot be measured (too few descriptors, say) leaves the others' figures standing.
          failures.add(count + " groups: " + e.getMessage());
          out.println("quotaflow bench collector: " + count + " groups not measured: " + e.getMessage());
        }
      }
    } finally {
      if (pair != null) {
        pair.close();
      }
    }
    if (points.size() > 1 || (points.size() == 1 && groups.size() > 1)) {
      out.println();
      out.printf(Locale.ROOT, "Cost curve, every %s (%s), warm-up %s, window %s:%n%n", Durations.format(period),
          version, Durations.format(warmup), Durations.format(duration));
      out.print(CollectorCurve.table(points));
      if (points.size() > 1) {
        out.println();
        out.println(CollectorCurve.Fit.of(points).describe(points));
      }
      // Named by the cgroup version measured: the v1 and v2 curves differ (v2 reads fewer files here).
      Path chart = outDir.resolve("collector-curve-" + version.name().toLowerCase(Locale.ROOT) + ".svg").toAbsolutePath();
      Files.createDirectories(chart.getParent());
      Files.writeString(chart, CollectorCurve.chart(points, String.format(Locale.ROOT,
          "quotaflow bench collector --groups %s, cgroup %s: every %s, warm-up %s, window %s, load average %s",
          groups.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(",")), version,
          Durations.format(period), Durations.format(warmup), Durations.format(duration),
          points.stream().map(p -> String.format(Locale.ROOT, "%.1f", p.loadAverage()))
              .collect(java.util.stream.Collectors.joining(" / ")))), StandardCharsets.UTF_8);
      out.println();
      out.println("Chart: " + chart);
    }
    failures.forEach(failure -> out.println("Not measured: " + failure));
    out.flush();
    return failures.isEmpty() ? 0 : 1;
  }

  /**
   * One group count: its own parent and groups, its own topics and collector JVM. The groups are
   * removed when it ends, also on failure, and by a shutdown hook when the bench is interrupted.
   */
  private final class Run {
    private final int count;
    private final String parentName = BenchCgroupTree.newParentName();
    private final List<TaskId> created = new ArrayList<>();
    private Cgroups cgroups;
    private Process child;

    Run(int count) {
      this.count = count;
    }

    void openCgroups() throws NoCgroups {
      try {
        cgroups = Cgroups.open(tree.config(parentName));
        cgroups.createParent();
      } catch (IOException | IllegalArgumentException e) {
        throw new NoCgroups(e);
      }
    }

    CollectorCurve.Point measure(EmbeddedPair pair, PrintWriter out) throws Exception {
      Thread interrupted = new Thread(this::cleanUp, "bench-collector-cleanup");
      Runtime.getRuntime().addShutdownHook(interrupted);
      Path log = Files.createTempFile("quotaflow-bench-collector-", ".log");
      double removeS;
      CollectorCurve.Point point;
      try {
        long createStart = System.nanoTime();
        for (int i = 0; i < count; i++) {
          TaskId task = TaskId.of(String.format(Locale.ROOT, "task-%04d", i));
          synchronized (this) {
            cgroups.create(task);
            created.add(task);
          }
        }
        double createS = (System.nanoTime() - createStart) / 1e9;
        out.printf(Locale.ROOT, "quotaflow bench collector: %d empty groups under %s (%s), every %s, memory.stat at least every"
            + " %d rounds; warm-up %s, window %s; collector JVM options %s; groups created in %.1f s.%n", count, parentName,
            cgroups.version(),
            Durations.format(period), memoryStatEvery, Durations.format(warmup), Durations.format(duration),
            jvmOptions.isEmpty() ? "(none)" : String.join(" ", jvmOptions), createS);
        out.flush();
        int opsPort = Ports.free("127.0.0.1");
        String samplesTopic = createTopics(pair, topicPrefix(parentName));
        synchronized (this) {
          child = startCollector(pair, parentName, period, opsPort, log);
        }
        try {
          Metrics metrics = new Metrics(URI.create("http://127.0.0.1:" + opsPort + "/metrics"));
          awaitSampling(child, metrics, log, count);
          Thread.sleep(warmup.toMillis()); // a benchmark, not a test: the JIT needs the time
          Snapshot before = Snapshot.of(child, metrics);
          Thread.sleep(duration.toMillis());
          Snapshot after = Snapshot.of(child, metrics);
          point = report(out, before, after, count, createS);
        } finally {
          stop(child);
        }
        reportBrokerBytes(out, pair, samplesTopic);
      } finally {
        long removeStart = System.nanoTime();
        int removed = cleanUp();
        removeS = (System.nanoTime() - removeStart) / 1e9;
        try {
          Runtime.getRuntime().removeShutdownHook(interrupted);
        } catch (IllegalStateException shuttingDown) {
          // the hook runs anyway; removing is idempotent
        }
        out.printf(Locale.ROOT, "Removed the %d groups and %s in %.1f s. Collector log: %s%n", removed, parentName, removeS, log);
        out.flush();
      }
      return new CollectorCurve.Point(point.groups(), point.periodS(), point.windowS(), point.cpuS(), point.split(),
          point.rounds(), point.roundWallS(), point.maxRoundS(), point.published(), point.dropped(), point.readErrors(),
          point.createS(), removeS, point.loadAverage());
    }

    /** Ends the collector if it runs, removes the groups created so far and the parent; returns how many groups. */
    synchronized int cleanUp() {
      if (child != null && child.isAlive()) {
        child.destroyForcibly();
      }
      int removed = created.size();
      for (TaskId task : created) {
        try {
          cgroups.remove(task);
        } catch (IOException e) {
          System.err.println("quotaflow bench collector: cannot remove " + task + ": " + e.getMessage());
        }
      }
      created.clear();
      try {
        cgroups.removeParent();
      } catch (IOException e) {
        System.err.println("quotaflow bench collector: cannot remove " + parentName + ": " + e.getMessage());
      }
      return removed;
    }
  }

  private Process startCollector(EmbeddedPair pair, String parentName, Duration periodTime, int opsPort, Path log)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), CollectorMain.class.getName(),
        "--node", "bench", "--parent", parentName, "--layout", tree.layout, "--cgroup-root", tree.cgroupRoot.toString(),
        "--period", Durations.format(periodTime), "--bootstrap", pair.bootstrapServers(), "--registry", pair.registryUrl(),
        "--topic-prefix", topicPrefix(parentName), "--http-host", "127.0.0.1",
        "--http-port", Integer.toString(opsPort), "--memory-stat-every", Integer.toString(memoryStatEvery)));
    if (kafkaConfig != null) {
      command.addAll(List.of("--kafka-config", kafkaConfig.toAbsolutePath().toString()));
    }
    // The child starts in this JVM's cgroups, so "--parent NAME" resolves to the same parent here and there.
    return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  /**
   * What the collector's samples take on the broker, per sample: the batches as its producer built them (compressed
   * or not), counted once it stopped and sent what it held. Warm-up included; one partition, no transactions, so the
   * end offset is the record count.
   */
  private void reportBrokerBytes(PrintWriter out, EmbeddedPair pair, String samples) throws Exception {
    try (Admin admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, pair.bootstrapServers()))) {
      long bytes = BrokerLogs.bytesByTopic(admin).getOrDefault(samples, 0L);
      TopicPartition partition = new TopicPartition(samples, 0);
      long records = admin.listOffsets(Map.of(partition, OffsetSpec.latest())).all().get().get(partition).offset();
      out.printf(Locale.ROOT, "Samples on the broker (%s): %,d records, %,d B, **%.1f B per sample**.%n",
          kafkaConfig == null ? "the collector's producer defaults" : "--kafka-config " + kafkaConfig, records, bytes,
          records == 0 ? 0.0 : (double) bytes / records);
      out.flush();
    }
  }

  private static String topicPrefix(String parentName) {
    return "bench-" + parentName + ".";
  }

  /** The collector's two topics, one partition each (in a deployment the streams app creates them); the samples topic's name. */
  private static String createTopics(EmbeddedPair pair, String prefix) {
    Topics topics = Topics.create(new Topics.Settings(prefix, 1, true), SchemaRegistryClients.create(pair.registryUrl()));
    try (Admin admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, pair.bootstrapServers()))) {
      TopicAdmin.createMissing(admin, List.of(topics.samples(), topics.nodes()), Optional.empty());
    }
    return topics.samples().name();
  }

  private static void awaitSampling(Process child, Metrics metrics, Path log, int groups) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      if (!child.isAlive()) {
        throw new PointFailed("the collector exited with " + child.exitValue() + ": " + Files.readString(log).trim());
      }
      Map<String, Double> now = metrics.scrapeOrEmpty();
      if (now.getOrDefault("quotaflow_collector_groups", 0.0) >= groups
          && now.getOrDefault("quotaflow_collector_samples_published_total", 0.0) >= groups) {
        return;
      }
      Thread.sleep(500);
    }
    Map<String, Double> last = metrics.scrapeOrEmpty();
    throw new PointFailed(String.format(Locale.ROOT, "the collector did not sample %d groups within 120 s (it samples %.0f,"
        + " %.0f read errors); log: %s", groups, last.getOrDefault("quotaflow_collector_groups", 0.0),
        last.getOrDefault("quotaflow_collector_read_errors_total", 0.0), log));
  }

  private static void stop(Process child) throws InterruptedException {
    child.destroy(); // SIGTERM: the collector stops cleanly
    if (!child.waitFor(30, TimeUnit.SECONDS)) {
      child.destroyForcibly();
      child.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private CollectorCurve.Point report(PrintWriter out, Snapshot before, Snapshot after, int groups, double createS)
      throws IOException {
    double wallS = (after.wallNanos() - before.wallNanos()) / 1e9;
    double cpuS = (after.cpuNanos() - before.cpuNanos()) / 1e9;
    double rounds = after.metric("quotaflow_collector_sample_duration_seconds_count")
        - before.metric("quotaflow_collector_sample_duration_seconds_count");
    double roundS = after.metric("quotaflow_collector_sample_duration_seconds_sum")
        - before.metric("quotaflow_collector_sample_duration_seconds_sum");
    double published = after.metric("quotaflow_collector_samples_published_total")
        - before.metric("quotaflow_collector_samples_published_total");
    double loadAverage = Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+")[0]);
    out.println();
    out.println("| measure | value |");
    out.println("|---|---|");
    out.printf(Locale.ROOT, "| groups, period | %d, %s |%n", groups, Durations.format(period));
    out.printf(Locale.ROOT, "| window (wall) | %.1f s |%n", wallS);
    out.printf(Locale.ROOT, "| collector process CPU | %.2f s = **%.2f %% of one core** |%n", cpuS, 100 * cpuS / wallS);
    out.printf(Locale.ROOT, "| CPU per round | %.2f ms (%.1f µs per group) |%n", 1000 * cpuS / rounds, 1e6 * cpuS / rounds / groups);
    out.printf(Locale.ROOT, "| sampling round (wall, on the sampler thread) | %.2f ms |%n", 1000 * roundS / rounds);
    out.printf(Locale.ROOT, "| rounds, samples published | %.0f, %.0f (%.1f per round) |%n", rounds, published, published / rounds);
    out.printf(Locale.ROOT, "| samples dropped, read errors | %.0f, %.0f |%n",
        after.metric("quotaflow_collector_samples_dropped_total"), after.metric("quotaflow_collector_read_errors_total"));
    out.printf(Locale.ROOT, "| longest round (wall, last ~2 min), load average (1 min) | %.1f ms, %.2f |%n",
        1000 * after.metric("quotaflow_collector_sample_duration_seconds_max"), loadAverage);
    out.println();
    out.println("CPU by thread over the window (threads alive throughout):");
    out.println();
    out.println("| thread | CPU s | % of one core |");
    out.println("|---|---|---|");
    Map<String, Long> threads = new TreeMap<>();
    after.threads().forEach((name, nanos) -> threads.put(name, nanos - before.threads().getOrDefault(name, 0L)));
    threads.entrySet().stream()
        .filter(e -> e.getValue() > 0)
        .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
        .forEach(e -> out.printf(Locale.ROOT, "| %s | %.2f | %.2f %% |%n", e.getKey(), e.getValue() / 1e9,
            100 * e.getValue() / 1e9 / wallS));
    out.flush();
    return new CollectorCurve.Point(groups, period.toNanos() / 1e9, wallS, cpuS, CollectorCurve.Split.of(threads, cpuS),
        rounds, roundS, after.metric("quotaflow_collector_sample_duration_seconds_max"), published,
        after.metric("quotaflow_collector_samples_dropped_total") - before.metric("quotaflow_collector_samples_dropped_total"),
        after.metric("quotaflow_collector_read_errors_total") - before.metric("quotaflow_collector_read_errors_total"),
        createS, 0, loadAverage);
  }

  /** The child's CPU, its threads' CPU and its metrics at one moment. */
  private record Snapshot(long wallNanos, long cpuNanos, Map<String, Long> threads, Map<String, Double> metrics) {

    static Snapshot of(Process child, Metrics source) throws Exception {
      Map<String, Double> metrics = source.scrape();
      Map<String, Long> threads = ThreadCpu.byName(child.pid());
      long cpu = child.info().totalCpuDuration().orElseThrow(() ->
          new IllegalStateException("no CPU time for pid " + child.pid())).toNanos();
      return new Snapshot(System.nanoTime(), cpu, threads, metrics);
    }

    double metric(String name) {
      return metrics.getOrDefault(name, 0.0);
    }
  }

  /** The collector's /metrics, reduced to name → value (labels dropped: each name has one series here). */
  private final class Metrics {
    private final URI uri;

    Metrics(URI uri) {
      this.uri = uri;
    }

    Map<String, Double> scrape() throws IOException, InterruptedException {
      String text = http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body();
      Map<String, Double> values = new TreeMap<>();
      for (String line : text.split("\n")) {
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        int end = line.indexOf('{') >= 0 ? line.indexOf('{') : line.indexOf(' ');
        values.put(line.substring(0, end), Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
      }
      return values;
    }

    Map<String, Double> scrapeOrEmpty() throws InterruptedException {
      try {
        return scrape();
      } catch (IOException notYet) {
        return Map.of();
      }
    }
  }
}
