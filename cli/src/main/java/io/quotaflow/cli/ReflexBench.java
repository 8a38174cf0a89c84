package io.quotaflow.cli;

import io.quotaflow.benchmarks.Latencies;
import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.CgroupParent;
import io.quotaflow.cgroups.CgroupSandbox;
import io.quotaflow.cgroups.CgroupStatsReader;
import io.quotaflow.cgroups.MemoryStatRefresh;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.cli.demo.DecisionWatch;
import io.quotaflow.cli.demo.NodeStack;
import io.quotaflow.cli.demo.Workload;
import io.quotaflow.enforcer.Enforcer;
import io.quotaflow.embedded.Directories;
import io.quotaflow.embedded.EmbeddedPair;
import io.quotaflow.process.Durations;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.Enforcement;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.GateTable;
import io.quotaflow.schemas.avro.GateTableTask;
import io.quotaflow.schemas.avro.GateTaskRole;
import io.quotaflow.schemas.avro.PeakGatingMode;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import io.quotaflow.schemas.registry.SchemaRegistryClients;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code quotaflow bench reflex}: how soon a task that crosses its peak threshold is stopped, on real
 * cgroups, with and without the enforcer's reflex (issue 21). Two stepping allocators in v1 memory and
 * freezer groups under the whole node pipeline ({@link NodeStack}: streams app, collector, enforcer, on
 * an embedded broker); COUNT with one slot. In each trial one allocator holds the slot at its peak and
 * the other steps over its threshold: the allocator prints the time it grew past the threshold of the
 * gate table (its own clock), the bench polls the group's {@code freezer.state} every millisecond and
 * takes the time it first reads {@code FROZEN}. Then both fall back, the frozen one is thawed by the
 * gate, and they swap roles. Lives in the cli because the stepping allocator and the node stack do.
 */
@Command(
    name = "reflex",
    mixinStandardHelpOptions = true,
    description = {
        "Crossing of the peak threshold -> freezer FROZEN on real cgroups (v1, root), with and without the enforcer's"
            + " memory reflex, through the whole node pipeline on an embedded broker (see docs/benchmarks.md).",
        "Two stepping allocators, COUNT with one slot: one holds the slot at its peak, the other steps over its"
            + " threshold; the allocator's own time of the crossing against the first FROZEN read of freezer.state."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:the figures were printed",
        "1:no writable v1 memory and freezer groups here, or a part of the pipeline failed",
        "2:a usage error"})
public final class ReflexBench implements Callable<Integer> {

  private static final String NODE = "reflex-node";
  private static final long NORMAL_MB = 64;
  private static final long PEAK_MB = 128;
  /** The allocator works in whole MiB and the JVM's own memory wobbles a little. */
  private static final long TOLERANCE_MB = 3;
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final Duration LEASE = Duration.ofMinutes(3);

  @Option(names = "--trials", paramLabel = "N", defaultValue = "20", description = "Crossings measured per series (default: ${DEFAULT-VALUE}).")
  int trials;

  @Option(names = "--reflex-hz", paramLabel = "HZ", defaultValue = "10",
      description = "The enforcer's reflex rate in the series with the reflex (default: ${DEFAULT-VALUE}).")
  int reflexHz;

  @Option(names = "--series", paramLabel = "without|with", split = ",", defaultValue = "without,with",
      description = "Which series to run: without the reflex (the gate's decision only), with it (default: ${DEFAULT-VALUE}).")
  List<String> series;

  @Option(names = "--sample-period", paramLabel = "DURATION", defaultValue = "1s", converter = Durations.Converter.class,
      description = "The collector's sample period (default: ${DEFAULT-VALUE}, the collector's own default).")
  Duration samplePeriod;

  @Option(names = "--commit-interval", paramLabel = "DURATION", defaultValue = "100ms", converter = Durations.Converter.class,
      description = "The streams app's commit interval (default: ${DEFAULT-VALUE}, Kafka Streams' default under exactly_once_v2).")
  Duration commitInterval;

  @Option(names = "--cgroup-root", paramLabel = "DIR", defaultValue = "/sys/fs/cgroup", description = "cgroup root (default: ${DEFAULT-VALUE}).")
  Path cgroupRoot;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  private PrintWriter out;

  @Override
  public Integer call() throws Exception {
    if (reflexHz < 1 || reflexHz > Enforcer.Settings.MAX_REFLEX_HZ) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--reflex-hz must be 1 to " + Enforcer.Settings.MAX_REFLEX_HZ + ", was " + reflexHz);
    }
    if (trials < 1 || samplePeriod.isNegative() || samplePeriod.isZero() || commitInterval.isNegative()
        || commitInterval.isZero()) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--trials, --sample-period and --commit-interval must be positive");
    }
    for (String name : series) {
      if (!name.equals("without") && !name.equals("with")) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--series takes without and/or with, not '" + name + "'");
      }
    }
    out = spec.commandLine().getOut();
    String parentName = "quotaflow-bench-" + UUID.randomUUID().toString().substring(0, 8);
    CgroupSandbox sandbox;
    try {
      sandbox = CgroupSandbox.open(new CgroupConfig(cgroupRoot, CgroupLayout.V1, CgroupParent.underOwnGroup(parentName)));
      if (!sandbox.cgroups().freezerSupported()) {
        sandbox.close();
        throw new IOException("no v1 freezer for our groups on " + sandbox.cgroups().describe());
      }
    } catch (IOException | IllegalArgumentException e) {
      spec.commandLine().getErr().println("quotaflow bench reflex: needs writable v1 memory and freezer cgroups (root): "
          + e.getMessage());
      return 1;
    }
    Path workDir = Directories.temporary("quotaflow-bench-reflex-");
    Map<String, Latencies.Summary> figures = new LinkedHashMap<>();
    try (sandbox; EmbeddedPair pair = EmbeddedPair.start()) {
      out.printf(Locale.ROOT, "quotaflow bench reflex: threshold crossing -> freezer FROZEN, %d trials per series, on %s;"
              + " COUNT 1 slot, normal %d MiB, peaks to %d MiB, threshold 1.1 x normal; sample period %d ms, commit"
              + " interval %d ms; %d cores, load average %s%n%n", trials, sandbox.cgroups().describe(), NORMAL_MB, PEAK_MB,
          samplePeriod.toMillis(), commitInterval.toMillis(), Runtime.getRuntime().availableProcessors(), loadAverage());
      out.flush();
      Map<String, Object> client = Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, pair.bootstrapServers());
      SchemaRegistryClient registry = SchemaRegistryClients.create(pair.registryUrl());
      for (String name : series) {
        int hz = name.equals("with") ? reflexHz : 0;
        String label = hz == 0 ? "without reflex" : "reflex " + hz + " Hz";
        figures.put(label, new Series(sandbox, client, registry, workDir.resolve(name), hz, label).run());
      }
    } finally {
      Directories.deleteRecursively(workDir);
    }
    out.printf(Locale.ROOT, "%n%-16s %6s %7s %7s %7s%n", "series", "trials", "p50 ms", "p99 ms", "max ms");
    figures.forEach((label, s) ->
        out.printf(Locale.ROOT, "%-16s %6d %7d %7d %7d%n", label, s.count(), s.p50Ms(), s.p99Ms(), s.maxMs()));
    out.printf(Locale.ROOT, "(nearest-rank percentiles: of %d trials, p99 is the %d%s smallest)%nLoad average at the"
        + " end: %s%n", trials, (int) Math.ceil(0.99 * trials), ordinalSuffix((int) Math.ceil(0.99 * trials)),
        loadAverage());
    out.flush();
    return 0;
  }

  /** One series: its own topics, node stack and pair of allocators. */
  private final class Series {
    private final CgroupSandbox sandbox;
    private final Map<String, Object> client;
    private final SchemaRegistryClient registry;
    private final Path workDir;
    private final int reflexHz;
    private final String label;
    private final List<Allocator> allocators = new ArrayList<>();

    Series(CgroupSandbox sandbox, Map<String, Object> client, SchemaRegistryClient registry, Path workDir, int reflexHz,
        String label) {
      this.sandbox = sandbox;
      this.client = client;
      this.registry = registry;
      this.workDir = workDir;
      this.reflexHz = reflexHz;
      this.label = label;
    }

    Latencies.Summary run() throws Exception {
      String prefix = "bench-reflex-" + (reflexHz == 0 ? "off" : reflexHz + "hz") + ".";
      Topics topics = Topics.create(new Topics.Settings(prefix, 1, true), registry);
      for (String name : List.of("a", "b")) {
        allocators.add(new Allocator(sandbox, sandbox.group(prefix.replace('.', '-') + name), workDir));
      }
      for (Allocator allocator : allocators) {
        allocator.step(NORMAL_MB, Long.MAX_VALUE);
      }
      for (Allocator allocator : allocators) {
        await(allocator.task + " at " + NORMAL_MB + " MiB", () -> allocator.near(NORMAL_MB));
      }
      Latencies delays = new Latencies();
      int byReflex = 0;
      try (NodeStack stack = NodeStack.start(new NodeStack.Settings(client, topics.settings(), NODE, sandbox.config(),
              workDir.resolve("stack"), samplePeriod, commitInterval, reflexHz), registry,
              OpsServer.newRegistry("bench-reflex"));
          DecisionWatch watch = DecisionWatch.start(client, topics, NODE)) {
        publishConfig(topics);
        for (int trial = 0; trial < trials; trial++) {
          Allocator holder = allocators.get(trial % 2);
          Allocator crossing = allocators.get(1 - trial % 2);
          Trial measured = trial(watch, holder, crossing);
          delays.record(measured.frozenAtMs() - measured.crossedAtMs());
          if (measured.byReflex()) {
            byReflex++;
          }
          out.printf(Locale.ROOT, "  %s trial %2d: %s crossed at %d, FROZEN %d ms later (%s)%n", label, trial + 1,
              crossing.task, measured.crossedAtMs(), measured.frozenAtMs() - measured.crossedAtMs(),
              measured.byReflex() ? "reflex" : "gate's decision");
          out.flush();
        }
      } finally {
        for (Allocator allocator : allocators) {
          allocator.stop();
        }
      }
      out.printf(Locale.ROOT, "  %s: %d of %d freezes by the reflex%n", label, byReflex, trials);
      return delays.summary();
    }

    private void publishConfig(Topics topics) {
      ConfigTopics io = new ConfigTopics(client);
      io.publish(topics.clusterConfig(), "main", ClusterConfig.newBuilder().setCluster("main")
          .setEnforcement(Enforcement.ON).setPeakGatingMode(PeakGatingMode.COUNT).setMaxConcurrentPeaks(1)
          .setFreezeLeaseMs(LEASE.toMillis()).build());
      for (Allocator allocator : allocators) {
        io.publish(topics.taskSpecs(), TaskKey.keyOf(NODE, allocator.task.value()), TaskSpec.newBuilder()
            .setNode(NODE).setTask(allocator.task.value()).setOperation("bench-reflex").setNcpus(1)
            .setMemoryNormalBytes(NORMAL_MB << 20).setMemoryPeakBytes(PEAK_MB << 20)
            .setSubmittedMs(System.currentTimeMillis()).build());
      }
    }

    /** One crossing: {@code holder} takes the slot, {@code crossing} steps over its threshold and is frozen. */
    private Trial trial(DecisionWatch watch, Allocator holder, Allocator crossing) throws Exception {
      holder.step(PEAK_MB, Long.MAX_VALUE);
      String waiter = crossing.task.value();
      // From here the gate table the reflex reads says: the slot is taken, the other would not be admitted.
      await("the gate table: " + holder.task + " holds, " + waiter + " would wait", () -> watch.gateTable()
          .filter(t -> t.getHolders().equals(List.of(holder.task.value())) && row(t, waiter)
              .filter(r -> r.getRole() == GateTaskRole.RUNNING && !r.getAdmitted()).isPresent())
          .isPresent());
      long thresholdBytes = row(watch.gateTable().orElseThrow(), waiter).orElseThrow().getThresholdBytes();
      long crossingsBefore = crossing.crossings().size();
      FreezerPoll poll = FreezerPoll.start(sandbox, crossing.task);
      crossing.step(PEAK_MB, thresholdBytes);
      long frozenAtMs = poll.awaitFrozen(PATIENCE);
      await(crossing.task + " to report its crossing", () -> crossing.crossings().size() > crossingsBefore);
      long crossedAtMs = crossing.crossings().get(crossing.crossings().size() - 1);
      await("the enforcer's answer to the freeze of " + waiter, () -> watch.freezeResult(waiter)
          .filter(r -> r.getTsMs() >= crossedAtMs).isPresent());
      boolean byReflex = watch.freezeResult(waiter).map(EnforcementResult::getStatus)
          .filter(s -> s == EnforcementStatus.REFLEX_FROZEN).isPresent()
          || reflexHz > 0 && frozenBeforeAnyDecision(watch, waiter, frozenAtMs);
      // Back to normal: the holder's fall frees the slot, the gate thaws the waiter, which then falls too.
      crossing.step(NORMAL_MB, Long.MAX_VALUE);
      holder.step(NORMAL_MB, Long.MAX_VALUE);
      await("both back at " + NORMAL_MB + " MiB, nobody frozen, holding or waiting", () -> holder.near(NORMAL_MB)
          && crossing.near(NORMAL_MB) && !frozen(sandbox, crossing.task) && watch.gateTable()
          .filter(t -> t.getHolders().isEmpty() && t.getQueue().isEmpty()).isPresent());
      return new Trial(crossedAtMs, frozenAtMs, byReflex);
    }

    /** The first FREEZE decision for the task came after the kernel froze it: the reflex did. */
    private boolean frozenBeforeAnyDecision(DecisionWatch watch, String task, long frozenAtMs) {
      return watch.freeze(task).map(d -> d.getTsMs() > frozenAtMs).orElse(true);
    }
  }

  private record Trial(long crossedAtMs, long frozenAtMs, boolean byReflex) {}

  private static Optional<GateTableTask> row(GateTable table, String task) {
    return table.getTasks().stream().filter(r -> r.getTask().equals(task)).findFirst();
  }

  /** A stepping allocator in its own group; its standard output (the crossings it reports) goes to a file. */
  private static final class Allocator {
    private final CgroupSandbox sandbox;
    private final TaskId task;
    private final Path stdout;
    private final Process process;
    /** The gate's usage of the group (anonymous memory), read as the collector reads it. */
    private final CgroupStatsReader memory;

    Allocator(CgroupSandbox sandbox, TaskId task, Path dir) throws IOException {
      this.sandbox = sandbox;
      this.task = task;
      Files.createDirectories(dir);
      this.stdout = dir.resolve(task.value() + ".out");
      this.process = sandbox.spawn(task, Workload.stdinControlled(PEAK_MB + 64), ProcessBuilder.Redirect.to(stdout.toFile()));
      this.memory = sandbox.cgroups().openReader(task, MemoryStatRefresh.EVERY_READ);
    }

    /** Hold {@code mb}; report growing past {@code markBytes} (Long.MAX_VALUE: no report). */
    void step(long mb, long markBytes) throws IOException {
      OutputStream in = process.getOutputStream();
      in.write((mb + " " + markBytes + "\n").getBytes(StandardCharsets.US_ASCII));
      in.flush();
    }

    /** The epoch ms of every crossing reported so far. */
    List<Long> crossings() throws IOException {
      List<Long> times = new ArrayList<>();
      for (String line : Files.readAllLines(stdout, StandardCharsets.US_ASCII)) {
        String[] fields = line.trim().split("\\s+");
        if (fields.length == 3 && fields[0].equals(Workload.CROSSED)) {
          times.add(Long.parseLong(fields[2]));
        }
      }
      return times;
    }

    boolean near(long mb) throws IOException {
      Long anonBytes = memory.read().memoryAnonBytes();
      if (anonBytes == null) {
        throw new IOException("no anonymous memory in the memory.stat of " + task);
      }
      return Math.abs(anonBytes / (double) (1 << 20) - mb) <= TOLERANCE_MB;
    }

    /** Also after a failed trial, when the task may still be frozen. */
    void stop() throws IOException, InterruptedException {
      memory.close();
      sandbox.thawAndKill(task, process);
    }
  }

  /** Reads a group's freezer.state every millisecond on its own thread, from before the step on. */
  private static final class FreezerPoll {
    private final Thread thread;
    private volatile long frozenAtMs = -1;

    private FreezerPoll(CgroupSandbox sandbox, TaskId task) {
      this.thread = new Thread(() -> {
        try {
          while (!frozen(sandbox, task)) {
            Thread.sleep(1);
          }
          frozenAtMs = System.currentTimeMillis();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "bench-reflex-freezer-poll");
      thread.setDaemon(true);
    }

    static FreezerPoll start(CgroupSandbox sandbox, TaskId task) {
      FreezerPoll poll = new FreezerPoll(sandbox, task);
      poll.thread.start();
      return poll;
    }

    long awaitFrozen(Duration patience) throws InterruptedException {
      thread.join(patience.toMillis());
      if (frozenAtMs < 0) {
        thread.interrupt();
        throw new IllegalStateException("the group was not FROZEN within " + patience.toSeconds() + " s of its crossing");
      }
      return frozenAtMs;
    }
  }

  private static boolean frozen(CgroupSandbox sandbox, TaskId task) {
    try {
      return sandbox.read("freezer", task, "freezer.state").trim().equals("FROZEN");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void await(String what, IoCondition condition) throws Exception {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (!condition.holds()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("waited " + PATIENCE.toSeconds() + " s for " + what);
      }
      Thread.sleep(10);
    }
  }

  @FunctionalInterface
  private interface IoCondition {
    boolean holds() throws IOException;
  }

  private static String ordinalSuffix(int n) {
    if (n % 100 >= 11 && n % 100 <= 13) {
      return "th";
    }
    return switch (n % 10) {
      case 1 -> "st";
      case 2 -> "nd";
      case 3 -> "rd";
      default -> "th";
    };
  }

  private static String loadAverage() throws IOException {
    return Files.readString(Path.of("/proc/loadavg")).trim();
  }
}
