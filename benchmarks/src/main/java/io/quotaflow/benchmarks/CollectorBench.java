package io.quotaflow.benchmarks;

import io.quotaflow.cgroups.CgroupException;
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
        "Needs writable cgroups (root). Runs the collector as a child JVM; the broker runs in this process."})
public final class CollectorBench implements Callable<Integer> {

  @Option(names = "--groups", paramLabel = "N", defaultValue = "500", description = "Task groups to create and sample (default: ${DEFAULT-VALUE}).")
  int groups;

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

  @Option(names = "--jvm-opt", paramLabel = "OPTION",
      description = "An option for the collector's JVM, repeatable (default: none, the JVM's defaults).")
  List<String> jvmOptions = new ArrayList<>();

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  private final HttpClient http = HttpClient.newHttpClient();

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Duration periodTime = period;
    Duration warmupTime = warmup;
    Duration window = duration;
    String parentName = BenchCgroupTree.newParentName();
    Cgroups cgroups;
    try {
      cgroups = Cgroups.open(tree.config(parentName));
      cgroups.createParent();
    } catch (CgroupException | IllegalArgumentException e) {
      spec.commandLine().getErr().println("quotaflow bench collector: needs writable cgroups (root): " + e.getMessage());
      return 1;
    }
    List<TaskId> created = new ArrayList<>();
    Path log = Files.createTempFile("quotaflow-bench-collector-", ".log");
    try (EmbeddedPair pair = EmbeddedPair.start()) {
      for (int i = 0; i < groups; i++) {
        TaskId task = TaskId.of(String.format(Locale.ROOT, "task-%04d", i));
        cgroups.create(task);
        created.add(task);
      }
      out.printf(Locale.ROOT, "quotaflow bench collector: %d empty groups under %s (%s), every %s, memory.stat at least every"
          + " %d rounds; warm-up %s, window %s; collector JVM options %s.%n", groups, parentName, cgroups.version(),
          Durations.format(periodTime), memoryStatEvery, Durations.format(warmupTime), Durations.format(window),
          jvmOptions.isEmpty() ? "(none)" : String.join(" ", jvmOptions));
      out.flush();
      int opsPort = Ports.free("127.0.0.1");
      createTopics(pair, topicPrefix(parentName));
      Process child = startCollector(pair, parentName, periodTime, opsPort, log);
      try {
        Metrics metrics = new Metrics(URI.create("http://127.0.0.1:" + opsPort + "/metrics"));
        awaitSampling(child, metrics, log);
        Thread.sleep(warmupTime.toMillis()); // a benchmark, not a test: the JIT needs the time
        Snapshot before = Snapshot.of(child, metrics);
        Thread.sleep(window.toMillis());
        Snapshot after = Snapshot.of(child, metrics);
        report(out, before, after, periodTime);
      } finally {
        stop(child);
      }
    } finally {
      for (TaskId task : created) {
        cgroups.remove(task);
      }
      cgroups.removeParent();
      out.printf("Removed the %d groups and %s. Collector log: %s%n", created.size(), parentName, log);
      out.flush();
    }
    return 0;
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
    // The child starts in this JVM's cgroups, so "--parent NAME" resolves to the same parent here and there.
    return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  private static String topicPrefix(String parentName) {
    return "bench-" + parentName + ".";
  }

  /** The collector's two topics, one partition each: in a deployment the streams app creates them. */
  private static void createTopics(EmbeddedPair pair, String prefix) {
    Topics topics = Topics.create(new Topics.Settings(prefix, 1, true), SchemaRegistryClients.create(pair.registryUrl()));
    try (Admin admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, pair.bootstrapServers()))) {
      TopicAdmin.createMissing(admin, List.of(topics.samples(), topics.nodes()), Optional.empty());
    }
  }

  private void awaitSampling(Process child, Metrics metrics, Path log) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      if (!child.isAlive()) {
        throw new IllegalStateException("the collector exited with " + child.exitValue() + ": " + Files.readString(log).trim());
      }
      Map<String, Double> now = metrics.scrapeOrEmpty();
      if (now.getOrDefault("quotaflow_collector_groups", 0.0) >= groups
          && now.getOrDefault("quotaflow_collector_samples_published_total", 0.0) >= groups) {
        return;
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException("the collector did not sample " + groups + " groups within 120 s; log: " + log);
  }

  private static void stop(Process child) throws InterruptedException {
    child.destroy(); // SIGTERM: the collector stops cleanly
    if (!child.waitFor(30, TimeUnit.SECONDS)) {
      child.destroyForcibly();
      child.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private void report(PrintWriter out, Snapshot before, Snapshot after, Duration periodTime) {
    double wallS = (after.wallNanos() - before.wallNanos()) / 1e9;
    double cpuS = (after.cpuNanos() - before.cpuNanos()) / 1e9;
    double rounds = after.metric("quotaflow_collector_sample_duration_seconds_count")
        - before.metric("quotaflow_collector_sample_duration_seconds_count");
    double roundS = after.metric("quotaflow_collector_sample_duration_seconds_sum")
        - before.metric("quotaflow_collector_sample_duration_seconds_sum");
    double published = after.metric("quotaflow_collector_samples_published_total")
        - before.metric("quotaflow_collector_samples_published_total");
    out.println();
    out.println("| measure | value |");
    out.println("|---|---|");
    out.printf(Locale.ROOT, "| groups, period | %d, %s |%n", groups, Durations.format(periodTime));
    out.printf(Locale.ROOT, "| window (wall) | %.1f s |%n", wallS);
    out.printf(Locale.ROOT, "| collector process CPU | %.2f s = **%.2f %% of one core** |%n", cpuS, 100 * cpuS / wallS);
    out.printf(Locale.ROOT, "| CPU per round | %.2f ms (%.1f µs per group) |%n", 1000 * cpuS / rounds, 1e6 * cpuS / rounds / groups);
    out.printf(Locale.ROOT, "| sampling round (wall, on the sampler thread) | %.2f ms |%n", 1000 * roundS / rounds);
    out.printf(Locale.ROOT, "| rounds, samples published | %.0f, %.0f (%.1f per round) |%n", rounds, published, published / rounds);
    out.printf(Locale.ROOT, "| samples dropped, read errors | %.0f, %.0f |%n",
        after.metric("quotaflow_collector_samples_dropped_total"), after.metric("quotaflow_collector_read_errors_total"));
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
