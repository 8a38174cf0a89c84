package io.quotaflow.benchmarks;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupException;
import io.quotaflow.cgroups.Cgroups;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.collector.Collector;
import io.quotaflow.collector.CollectorSettings;
import io.quotaflow.embedded.Directories;
import io.quotaflow.embedded.EmbeddedPair;
import io.quotaflow.enforcer.Enforcer;
import io.quotaflow.process.Durations;
import io.quotaflow.process.ProcessLifecycle;
import io.quotaflow.schemas.GroupLag;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import io.quotaflow.schemas.registry.SchemaRegistryClients;
import io.quotaflow.streams.topology.StreamsRunner;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code quotaflow bench soak}: the whole pipeline for a long time at a fixed rate, to see that
 * nothing grows that should not. An embedded broker and registry, the streams app with its
 * production settings (only its application id and state directory are the bench's), the
 * {@code bench cpu} feed paced at {@code --rate}, a real enforcer for one synthetic node writing
 * real cgroups the bench creates, and a real collector sampling a few more real groups, all in
 * this JVM. Every {@code --every} it records rates, lag, heap, RocksDB memory, open files, state
 * directory and broker log sizes; at the end it writes the series (CSV), a verdict per series
 * ({@link SoakVerdict}) and a chart. A profile, not a test: nothing in CI runs it.
 */
@Command(
    name = "soak",
    mixinStandardHelpOptions = true,
    description = {
        "The whole pipeline at a fixed sample rate for a long time: heap, RocksDB memory, open files, state and "
            + "broker log sizes every interval, with a flat / grows verdict per series (see docs/benchmarks.md)."})
public final class SoakBench implements Callable<Integer> {

  @Option(names = "--minutes", paramLabel = "N", defaultValue = "30", description = "Length of the run (default: ${DEFAULT-VALUE}).")
  double minutes;

  @Option(names = "--rate", paramLabel = "SAMPLES_PER_S", defaultValue = "20000", description = "Samples/s offered (default: ${DEFAULT-VALUE}).")
  double rate;

  @Option(names = "--nodes", paramLabel = "N", defaultValue = "400", description = "Synthetic nodes (default: ${DEFAULT-VALUE}).")
  int nodes;

  @Option(names = "--tasks-per-node", paramLabel = "N", defaultValue = "50",
      description = "Tasks on each node (default: ${DEFAULT-VALUE}; 400 × 50 tasks at 20,000 samples/s is one sample per task per second).")
  int tasksPerNode;

  @Option(names = "--partitions", paramLabel = "N", defaultValue = "12", description = "Partitions of every node-keyed topic (default: ${DEFAULT-VALUE}).")
  int partitions;

  @Option(names = "--threads", paramLabel = "N", defaultValue = "1", description = "Stream threads (default: ${DEFAULT-VALUE}, the app's own default).")
  int threads;

  @Option(names = "--every", defaultValue = "30s", converter = Durations.Positive.class, paramLabel = "DURATION",
      description = "Interval between records (default: ${DEFAULT-VALUE}).")
  Duration every;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "target/soak", description = "Where soak.csv, soak.svg and soak.md go (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = "--flat-per-hour", paramLabel = "FRACTION", defaultValue = "0.1",
      description = "A series is flat when its slope over the last 2/3 moves it by at most this share of its mean per hour (default: ${DEFAULT-VALUE}).")
  double flatPerHour;

  @Option(names = "--phase-samples", paramLabel = "N", defaultValue = "16", description = "Samples a task stays busy, then idle (default: ${DEFAULT-VALUE}).")
  int phaseSamples;

  @Option(names = "--real-groups", paramLabel = "N", defaultValue = "4", description = "Real groups the collector samples (default: ${DEFAULT-VALUE}).")
  int realGroups;

  @Option(names = "--streams-config", paramLabel = "KEY=VALUE",
      description = "A Kafka Streams setting for the app, repeatable (default: none, the production settings).")
  Map<String, String> streamsConfig = new HashMap<>();

  @Option(names = "--chart-only", description = "Run nothing: chart and judge the soak.csv already in --out again (soak.svg, soak-verdicts.md).")
  boolean chartOnly;

  @CommandLine.Mixin
  BenchCgroupTree tree;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  static final String ENFORCED_NODE_INDEX = "0";
  static final String COLLECTED_NODE = "soak-collected";
  /** How long Ctrl-C or SIGTERM waits for the soak to stop its parts and remove its groups and files. */
  static final Duration STOP_TIMEOUT = Duration.ofMinutes(3);

  /**
   * A signal asks the soak to stop, as it does a Quotaflow process: without it the JVM exited with the real groups
   * still under their parents and the broker's and the app's files (~0.5 GiB) left in the temporary directory.
   */
  private final ProcessLifecycle lifecycle = new ProcessLifecycle("soak", STOP_TIMEOUT);

  @Override
  public Integer call() throws Exception {
    if (!(minutes > 0) || !(rate > 0) || nodes < 1 || tasksPerNode < 1 || partitions < 1 || threads < 1
        || phaseSamples < 1 || realGroups < 0 || !(flatPerHour > 0)) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--minutes, --rate, --nodes, --tasks-per-node, --partitions, --threads, --phase-samples and --flat-per-hour must be positive");
    }
    if ((long) nodes * tasksPerNode > CpuBench.MAX_TASKS) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          String.format(Locale.ROOT, "--nodes × --tasks-per-node is at most %,d tasks", CpuBench.MAX_TASKS));
    }
    PrintWriter printer = spec.commandLine().getOut();
    if (chartOnly) {
      SoakSeries series = SoakSeries.fromCsv(Files.readString(out.resolve("soak.csv")));
      Files.writeString(out.resolve("soak.svg"), chart(series));
      Files.writeString(out.resolve("soak-verdicts.md"), verdicts(series));
      printer.print(verdicts(series));
      printer.flush();
      return 0;
    }
    Files.createDirectories(out);
    CpuWorkload workload = new CpuWorkload(nodes, tasksPerNode, phaseSamples, 1);
    String enforcedNode = workload.key(0).substring(0, workload.key(0).indexOf('/'));
    Path workDir = Directories.temporary("quotaflow-soak-");
    List<String> notes = new ArrayList<>();
    printer.printf(Locale.ROOT, "quotaflow bench soak: %s at %,.0f samples/s over %d nodes × %d tasks, %d partitions, %d stream"
            + " thread(s), production settings%s; a record every %s into %s; %d cores, max heap %d MiB.%n",
        Durations.format(Duration.ofMillis(Math.round(minutes * 60_000))), rate, nodes, tasksPerNode, partitions, threads,
        streamsConfig.isEmpty() ? "" : " and " + streamsConfig, Durations.format(every), out.toAbsolutePath(),
        Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20);
    printer.flush();
    try (ProcessLifecycle.Running running = lifecycle.begin()) {
      soak(printer, workload, enforcedNode, workDir, notes);
    }
    return 0;
  }

  /** Everything it starts is stopped, and every group and file it made removed, before it returns or throws. */
  private void soak(PrintWriter printer, CpuWorkload workload, String enforcedNode, Path workDir, List<String> notes)
      throws Exception {
    try (EmbeddedPair pair = EmbeddedPair.start();
        RealGroups enforced = RealGroups.create(tree, "task-%04d", tasksPerNode, notes);
        RealGroups collected = RealGroups.create(tree, "real-%02d", realGroups, notes)) {
      Map<String, Object> client = Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, pair.bootstrapServers());
      SchemaRegistryClient registry = SchemaRegistryClients.create(pair.registryUrl());
      Topics.Settings topicSettings = new Topics.Settings("soak.", partitions, true);
      Topics topics = Topics.create(topicSettings, registry);
      String applicationId = "soak.streams";
      Path stateDir = workDir.resolve("streams");
      Map<String, Object> overrides = new HashMap<>();
      overrides.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
      overrides.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
      overrides.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, threads);
      overrides.putAll(streamsConfig);
      SimpleMeterRegistry meters = new SimpleMeterRegistry();
      try (Admin admin = Admin.create(new HashMap<>(client));
          StreamsRunner runner = StreamsRunner.start(new StreamsRunner.Settings(client, overrides, topicSettings, Optional.empty()),
              registry, meters)) {
        if (!runner.awaitRunning(Duration.ofMinutes(2))) {
          throw new IllegalStateException("the streams app did not reach RUNNING within 2 minutes: " + runner.state());
        }
        CpuBench.publishSetup(client, topics, partitions, workload);
        List<AutoCloseable> nodeParts = new ArrayList<>();
        try {
          if (enforced.cgroups().isPresent()) {
            nodeParts.add(Enforcer.start(new Enforcer.Settings(enforcedNode, false, workDir.resolve("enforcer.json"),
                    Enforcer.Settings.DEFAULT_LEASE_THAW_INTERVAL, Enforcer.Settings.DEFAULT_FREEZE_TIMEOUT, client),
                enforced.cgroups().get(), topics, meters));
            notes.add(String.format(Locale.ROOT, "A real enforcer for %s writes %d real %s groups under %s.", enforcedNode,
                tasksPerNode, enforced.cgroups().get().version(), enforced.parentName()));
          }
          if (collected.cgroups().isPresent() && realGroups > 0) {
            nodeParts.add(Collector.start(CollectorSettings.defaults(COLLECTED_NODE, collected.config()).withOps("127.0.0.1", 0),
                client, topics));
            notes.add(String.format(Locale.ROOT, "A real collector (node %s) samples %d real empty groups under %s every %s.",
                COLLECTED_NODE, realGroups, collected.parentName(), Durations.format(CollectorSettings.DEFAULT_PERIOD)));
          }
          try (SampleFeed feed = new SampleFeed(client, workload, topics.samples().name(), partitions,
              topics.samples().valueSerde().serializer(), new Pacer(rate)::dueBy).start()) {
            Recorder recorder = new Recorder(admin, runner, meters, topics, applicationId, stateDir, feed, printer);
            if (!recorder.run()) {
              printer.printf(Locale.ROOT, "Stopped by a signal after %d record(s): no verdict; stopping the parts and removing"
                  + " the groups and the work directory.%n", recorder.series().size());
              printer.flush();
              return;
            }
            if (!runner.health().live()) {
              throw new IllegalStateException("the streams app stopped during the soak (" + runner.state() + ")");
            }
            if (feed.failures() > 0) {
              notes.add(String.format(Locale.ROOT, "%,d sample sends failed.", feed.failures()));
            }
            notes.add(enforced.sharesNote());
            notes.add("Largest topics in the broker log at the end (MiB): " + recorder.largestTopics(6) + ".");
            report(printer, recorder.series(), notes);
          }
        } finally {
          Collections.reverse(nodeParts); // the collector, then the enforcer
          for (AutoCloseable part : nodeParts) {
            part.close();
          }
        }
      }
    } finally {
      Directories.deleteRecursively(workDir);
    }
  }

  /** Writes soak.csv, soak.svg and soak.md into {@code --out} and prints the verdicts. */
  private void report(PrintWriter printer, SoakSeries series, List<String> notes) throws IOException {
    Files.writeString(out.resolve("soak.csv"), series.csv());
    StringBuilder md = new StringBuilder(verdicts(series)).append('\n');
    notes.forEach(note -> md.append("- ").append(note).append('\n'));
    Files.writeString(out.resolve("soak.md"), md);
    Files.writeString(out.resolve("soak.svg"), chart(series));
    printer.println();
    printer.print(md);
    printer.println("Series: " + out.resolve("soak.csv") + ", chart: " + out.resolve("soak.svg"));
    printer.flush();
  }

  /** The verdict of every judged series, as a Markdown table under a line saying what "flat" means. */
  private String verdicts(SoakSeries series) {
    double lagFloor = rate; // a second of samples in flight between commits is noise, not a leak
    StringBuilder md = new StringBuilder();
    md.append(String.format(Locale.ROOT, "Soak: %.0f min at %,.0f samples/s offered, a record every %s. "
            + "Flat: |slope over the last 2/3| ≤ %.0f %% of the mean per hour (lag: of max(mean, %,.0f records)).%n%n",
        series.hours()[series.size() - 1] * 60, rate, Durations.format(every), 100 * flatPerHour, lagFloor));
    md.append("| series | start | end | min | max | mean (last 2/3) | slope /h | of mean /h | verdict |\n");
    md.append("|---|---|---|---|---|---|---|---|---|\n");
    for (SoakSeries.Column column : SoakSeries.Column.values()) {
      if (!column.judged) {
        continue;
      }
      SoakVerdict verdict = SoakVerdict.of(series.hours(), series.values(column), flatPerHour,
          column == SoakSeries.Column.LAG ? lagFloor : 0);
      md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", column.title,
          n(verdict.start()), n(verdict.end()), n(verdict.min()), n(verdict.max()), n(verdict.mean()),
          n(verdict.slopePerHour()), verdict.relativeText(), verdict.word()));
    }
    return md.toString();
  }

  private String chart(SoakSeries series) {
    return series.chart(String.format(Locale.ROOT, "Soak: %,.0f samples/s offered, %,d tasks, whole pipeline in one JVM",
            rate, nodes * tasksPerNode),
        "every " + Durations.format(every) + "; heap and RocksDB memory should stay flat, the broker log grows until segments roll");
  }

  private static String n(double value) {
    return Math.abs(value) >= 100 || value == Math.rint(value)
        ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%,.2f", value);
  }

  /** Takes one record every {@code --every} until the run's end. */
  private final class Recorder {
    private final Admin admin;
    private final StreamsRunner runner;
    private final SimpleMeterRegistry meters;
    private final Topics topics;
    private final String applicationId;
    private final Path stateDir;
    private final SampleFeed feed;
    private final PrintWriter printer;
    private final SoakSeries series = new SoakSeries();
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final AtomicLong heapMin = new AtomicLong(Long.MAX_VALUE);

    Recorder(Admin admin, StreamsRunner runner, SimpleMeterRegistry meters, Topics topics, String applicationId,
        Path stateDir, SampleFeed feed, PrintWriter printer) {
      this.admin = admin;
      this.runner = runner;
      this.meters = meters;
      this.topics = topics;
      this.applicationId = applicationId;
      this.stateDir = stateDir;
      this.feed = feed;
      this.printer = printer;
    }

    SoakSeries series() {
      return series;
    }

    /** Whether it ran to the end: false when a signal asked the soak to stop first. */
    boolean run() throws Exception {
      // The lowest used heap of each interval, polled every 200 ms: the floor the collector brings it back to,
      // without forcing a GC that would stall the app every interval.
      ScheduledExecutorService heapPoll = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "soak-heap-poll");
        t.setDaemon(true);
        return t;
      });
      heapPoll.scheduleAtFixedRate(() -> heapMin.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::min),
          0, 200, TimeUnit.MILLISECONDS);
      try {
        long startNanos = System.nanoTime();
        long endNanos = startNanos + Math.round(minutes * 60e9);
        long sentBefore = feed.sent();
        long committedBefore = CpuBench.committedOffsets(admin, applicationId, topics.samples().name());
        double appliedBefore = applied();
        long tickNanos = startNanos;
        while (tickNanos < endNanos) {
          tickNanos = Math.min(endNanos, tickNanos + every.toNanos());
          if (lifecycle.awaitStopRequest(Duration.ofNanos(Math.max(0, tickNanos - System.nanoTime())))) {
            return false;
          }
          double seconds = every.toNanos() / 1e9;
          long sent = feed.sent();
          long committed = CpuBench.committedOffsets(admin, applicationId, topics.samples().name());
          double appliedNow = applied();
          Map<String, Long> logBytes = BrokerLogs.bytesByTopic(admin);
          long samplesLog = logBytes.getOrDefault(topics.samples().name(), 0L);
          long allLogs = logBytes.values().stream().mapToLong(Long::longValue).sum();
          RocksDbMemory rocks = rocksDbMemory();
          double[] row = new double[SoakSeries.Column.values().length];
          row[SoakSeries.Column.SENT.ordinal()] = (sent - sentBefore) / seconds;
          row[SoakSeries.Column.COMMITTED.ordinal()] = (committed - committedBefore) / seconds;
          row[SoakSeries.Column.LAG.ordinal()] = GroupLag.of(admin, applicationId, List.of(topics.samples().name()))
              .values().stream().mapToLong(Long::longValue).sum();
          row[SoakSeries.Column.ENFORCED.ordinal()] = (appliedNow - appliedBefore) / seconds;
          row[SoakSeries.Column.HEAP_MIN_MIB.ordinal()] = heapMin.getAndSet(Long.MAX_VALUE) / 1048576.0;
          row[SoakSeries.Column.BLOCK_CACHE_MIB.ordinal()] = rocks.blockCacheBytes() / 1048576.0;
          row[SoakSeries.Column.MEMTABLES_MIB.ordinal()] = rocks.memtableBytes() / 1048576.0;
          row[SoakSeries.Column.TABLE_READERS_MIB.ordinal()] = rocks.tableReaderBytes() / 1048576.0;
          row[SoakSeries.Column.OPEN_FILES.ordinal()] = openFiles();
          row[SoakSeries.Column.STATE_DIR_MIB.ordinal()] = bytesUnder(stateDir) / 1048576.0;
          row[SoakSeries.Column.BROKER_LOG_OTHER_MIB.ordinal()] = (allLogs - samplesLog) / 1048576.0;
          row[SoakSeries.Column.BROKER_LOG_MIB.ordinal()] = allLogs / 1048576.0;
          row[SoakSeries.Column.LOAD_AVERAGE.ordinal()] = loadAverage();
          double hours = (System.nanoTime() - startNanos) / 3.6e12;
          series.add(hours, row);
          printer.printf(Locale.ROOT, "[%5.1f min] %s%n", hours * 60, series.describeLast());
          printer.flush();
          sentBefore = sent;
          committedBefore = committed;
          appliedBefore = appliedNow;
          if (!runner.health().live()) {
            throw new IllegalStateException("the streams app stopped during the soak (" + runner.state() + ")");
          }
        }
        return true;
      } finally {
        heapPoll.shutdownNow();
      }
    }

    /** The {@code count} largest topics in the broker's log, largest first. */
    String largestTopics(int count) throws Exception {
      return BrokerLogs.bytesByTopic(admin).entrySet().stream()
          .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
          .limit(count)
          .map(e -> String.format(Locale.ROOT, "%s %,.1f", e.getKey(), e.getValue() / 1048576.0))
          .collect(Collectors.joining(", "));
    }

    /** Results the enforcer published that wrote or confirmed a group (APPLIED, UNCHANGED). */
    private double applied() {
      return meters.find("quotaflow.enforcer.results").counters().stream()
          .filter(c -> List.of("APPLIED", "UNCHANGED").contains(c.getId().getTag("status")))
          .mapToDouble(Counter::count).sum();
    }

    /**
     * Kafka Streams' RocksDB property metrics (recorded at the default INFO level). All stores share
     * one block cache, which each store reports whole: the cache is their largest value, not their
     * sum. Memtables and table readers are each store's own: summed.
     */
    private RocksDbMemory rocksDbMemory() {
      long cache = 0;
      long memtables = 0;
      long readers = 0;
      for (Map.Entry<MetricName, ? extends Metric> e : runner.kafkaStreams().metrics().entrySet()) {
        if (!e.getKey().group().equals("stream-state-metrics") || !(e.getValue().metricValue() instanceof Number value)) {
          continue;
        }
        switch (e.getKey().name()) {
          case "block-cache-usage" -> cache = Math.max(cache, value.longValue());
          case "size-all-mem-tables" -> memtables += value.longValue();
          case "estimate-table-readers-mem" -> readers += value.longValue();
          default -> { }
        }
      }
      return new RocksDbMemory(cache, memtables, readers);
    }

  }

  private record RocksDbMemory(long blockCacheBytes, long memtableBytes, long tableReaderBytes) {}

  /** Open file descriptors of this process: everything (broker, app, enforcer, collector) runs in it. */
  static long openFiles() throws IOException {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.count();
    }
  }

  /** The machine's 1-minute load average: this run shares its cores with whatever else runs. */
  static double loadAverage() throws IOException {
    return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
  }

  /** Apparent bytes of the files under {@code dir}; files RocksDB removes while it is walked (a compaction) count 0. */
  static long bytesUnder(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return 0;
    }
    long[] total = {0};
    Files.walkFileTree(dir, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
        total[0] += attributes.isRegularFile() ? attributes.size() : 0;
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException gone) {
        return FileVisitResult.CONTINUE;
      }
    });
    return total[0];
  }

  /**
   * Real groups the bench creates under a parent of its own and removes again; none where cgroups
   * are not writable (the soak then runs without that part and says so).
   */
  private static final class RealGroups implements AutoCloseable {
    private final String parentName;
    private final CgroupConfig config;
    private final Cgroups cgroups;
    private final List<TaskId> created = new ArrayList<>();

    private RealGroups(String parentName, CgroupConfig config, Cgroups cgroups) {
      this.parentName = parentName;
      this.config = config;
      this.cgroups = cgroups;
    }

    static RealGroups create(BenchCgroupTree tree, String nameFormat, int count, List<String> notes) throws IOException {
      String parentName = BenchCgroupTree.newParentName();
      CgroupConfig config;
      Cgroups cgroups;
      try {
        config = tree.cpuConfig(parentName);
        cgroups = Cgroups.open(config);
        if (!cgroups.cpuSettingsSupported()) {
          throw new CgroupException("no cpu controller for our groups on " + cgroups.describe());
        }
        cgroups.createParent();
      } catch (IllegalArgumentException | IOException e) {
        notes.add("No real groups (" + nameFormat.replace("%04d", "N").replace("%02d", "N") + "): cgroups are not writable here: "
            + e.getMessage());
        return new RealGroups(parentName, null, null);
      }
      RealGroups groups = new RealGroups(parentName, config, cgroups);
      for (int i = 0; i < count; i++) {
        TaskId task = TaskId.of(String.format(Locale.ROOT, nameFormat, i));
        cgroups.create(task);
        groups.created.add(task);
      }
      return groups;
    }

    Optional<Cgroups> cgroups() {
      return Optional.ofNullable(cgroups);
    }

    CgroupConfig config() {
      return config;
    }

    String parentName() {
      return parentName;
    }

    /** The cpu.shares the enforcer left in the groups, lowest to highest: proof it wrote them. */
    String sharesNote() {
      if (cgroups == null) {
        return "No enforcer: no writable cgroups.";
      }
      long min = Long.MAX_VALUE;
      long max = Long.MIN_VALUE;
      for (TaskId task : created) {
        try {
          long shares = cgroups.readCpu(task).sharesEquivalent();
          min = Math.min(min, shares);
          max = Math.max(max, shares);
        } catch (IOException e) {
          return "Could not read the enforced groups back: " + e.getMessage();
        }
      }
      return String.format(Locale.ROOT, "At the end the %d enforced groups held cpu.shares %d..%d (the kernel's default is 1024).",
          created.size(), min, max);
    }

    @Override
    public void close() throws IOException {
      if (cgroups == null) {
        return;
      }
      for (TaskId task : created) {
        cgroups.remove(task);
      }
      cgroups.removeParent();
    }
  }
}
