package io.quotaflow.benchmarks;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.cgroups.CgroupException;
import io.quotaflow.cgroups.CgroupSandbox;
import io.quotaflow.cgroups.KernelCpuLimits;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.embedded.Directories;
import io.quotaflow.embedded.EmbeddedPair;
import io.quotaflow.enforcer.ControlDelay;
import io.quotaflow.enforcer.Enforcer;
import io.quotaflow.schemas.TopicAdmin;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupCpuSettings;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.Enforcement;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.registry.SchemaRegistryClients;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code quotaflow bench enforcer}: how fast a real enforcer ({@link Enforcer#start}, the production
 * path, enforcement ON) applies decisions to real cgroups, and how long one decision takes from its
 * record to its result. It creates {@code task-0000} … under {@code quotaflow-bench-<random>} below
 * this process's own groups and removes them again, also on failure and on Ctrl-C; an embedded
 * broker and registry carry the decisions and the results. Decisions alternate between two CPU
 * settings, so every one changes {@code cpu.shares} and the CFS quota of its group.
 *
 * <p>Every figure is read from the results the enforcer publishes ({@code EnforcementResult}): the
 * decision's offset names the decision, {@code ts_ms} is the enforcer's clock after the write and
 * read-back (a freeze: after the kernel reported FROZEN). The enforcer's own meters are printed next
 * to them as a cross-check.
 */
@Command(
    name = "enforcer",
    mixinStandardHelpOptions = true,
    description = {
        "Decisions a real enforcer applies per second, and the latency from a decision's record to the enforcer's result,"
            + " on real cgroups it creates (docs/benchmarks.md).",
        "Needs writable cgroups (root)."})
public final class EnforcerBench implements Callable<Integer> {

  static final String NODE = "bench-node";
  /** Upper bounds of the latency histogram's buckets, ms; one more bucket holds the rest. */
  static final long[] BUCKETS_MS = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000};
  private static final Duration READY_PATIENCE = Duration.ofSeconds(60);
  /** The two CPU settings decisions alternate between: each one changes cpu.shares and the quota. */
  private static final long[] SHARES = {256, 768};
  private static final long[] QUOTA_US = {50_000, 150_000};
  private static final long PERIOD_US = 100_000;
  /** Longer than any run: every THAW the enforcer applies is one the bench sent, none a lease running out. */
  private static final long FREEZE_LEASE_MS = 600_000;

  @Option(names = "--groups", paramLabel = "N", defaultValue = "500", description = "Task groups of the node (default: ${DEFAULT-VALUE}).")
  int groups;

  @Option(names = "--backlog", paramLabel = "DECISIONS", defaultValue = "20000",
      description = "CPU decisions of the rate run, published at once (default: ${DEFAULT-VALUE}).")
  int backlog;

  @Option(names = "--rate", paramLabel = "DECISIONS_PER_S", defaultValue = "200",
      description = "Decisions per second of the latency and freeze runs (default: ${DEFAULT-VALUE}).")
  double rate;

  @Option(names = "--decisions", paramLabel = "N", defaultValue = "4000",
      description = "CPU decisions of the latency run (default: ${DEFAULT-VALUE}, 20 s at 200/s).")
  int latencyDecisions;

  @Option(names = "--freeze-decisions", paramLabel = "N", defaultValue = "400",
      description = "FREEZE and THAW decisions of the freeze run, alternating per group, at --rate; 0 skips it (default: ${DEFAULT-VALUE}).")
  int freezeDecisions;

  @CommandLine.Mixin
  BenchCgroupTree tree;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  private PrintWriter out;
  private boolean allApplied = true;

  @Override
  public Integer call() throws Exception {
    if (groups < 1 || backlog < 1 || latencyDecisions < 1 || freezeDecisions < 0 || !(rate > 0) || Double.isInfinite(rate)) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--groups, --backlog, --decisions and --rate must be positive, --freeze-decisions at least 0");
    }
    out = spec.commandLine().getOut();
    String parentName = BenchCgroupTree.newParentName();
    CgroupSandbox sandbox;
    try {
      sandbox = CgroupSandbox.open(tree.cpuConfig(parentName));
      if (!sandbox.cgroups().cpuSettingsSupported()) {
        sandbox.close();
        throw new CgroupException("no cpu controller for our groups on " + sandbox.cgroups().describe());
      }
    } catch (IOException | IllegalArgumentException e) {
      spec.commandLine().getErr().println("quotaflow bench enforcer: needs writable cgroups (root): " + e.getMessage());
      return 1;
    }
    Cleanup cleanup = new Cleanup(sandbox);
    Thread hook = new Thread(cleanup::onExit, "bench-enforcer-cleanup");
    Runtime.getRuntime().addShutdownHook(hook); // Ctrl-C: no finally runs, the hook removes the groups
    try {
      List<TaskId> tasks = new ArrayList<>();
      for (int i = 0; i < groups; i++) {
        tasks.add(sandbox.group(String.format(Locale.ROOT, "task-%04d", i)));
      }
      out.printf(Locale.ROOT, "quotaflow bench enforcer: %d empty %s groups under %s, node %s, enforcement ON; %d cores,"
              + " load average %s at start.%n", groups, sandbox.cgroups().version(), parentName, NODE,
          Runtime.getRuntime().availableProcessors(), loadAverages());
      out.flush();
      run(sandbox, tasks, cleanup);
    } finally {
      cleanup.run();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running or ran
      }
    }
    out.printf(Locale.ROOT, "Removed the %d groups and %s.%n", groups, parentName);
    out.flush();
    if (!allApplied) {
      spec.commandLine().getErr().println("quotaflow bench enforcer: not every decision published was applied (see above)");
      return 1;
    }
    return 0;
  }

  private void run(CgroupSandbox sandbox, List<TaskId> tasks, Cleanup cleanup) throws Exception {
    Path workDir = Directories.temporary("quotaflow-bench-enforcer-");
    try (EmbeddedPair pair = EmbeddedPair.start()) {
      Map<String, Object> client = Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, pair.bootstrapServers());
      Topics topics = Topics.create(new Topics.Settings("bench-enforcer.", 1, true),
          SchemaRegistryClients.create(pair.registryUrl()));
      try (Admin admin = Admin.create(new HashMap<>(client))) {
        TopicAdmin.createMissing(admin, topics.all(), Optional.empty()); // in a deployment the streams app creates them
      }
      try (Decisions decisions = new Decisions(client, topics, tasks);
          ResultWatch results = new ResultWatch(client, topics).start()) {
        decisions.enforcementOn();
        MeterRegistry meters = new SimpleMeterRegistry();
        Enforcer enforcer = Enforcer.start(new Enforcer.Settings(NODE, false, workDir.resolve("enforcer.json"),
                Enforcer.Settings.DEFAULT_LEASE_THAW_INTERVAL, Enforcer.Settings.DEFAULT_FREEZE_TIMEOUT, client),
            sandbox.cgroups(), topics, meters);
        cleanup.enforcer(enforcer);
        awaitReady(enforcer);
        Thread enforcing = threadNamed("quotaflow-enforcer-" + NODE);
        Runs runs = new Runs(decisions, results, meters, enforcing, topics);
        runs.firstWrites();
        runs.latency();
        if (freezeDecisions > 0) {
          if (sandbox.cgroups().freezerSupported()) {
            runs.freeze();
          } else {
            out.println("Freeze: skipped, no freezer for these groups on " + sandbox.cgroups().describe() + ".");
          }
        }
        runs.rate();
        out.printf(Locale.ROOT, "Load average at the end: %s.%n", loadAverages());
        out.flush();
      } finally {
        cleanup.closeEnforcer(); // before the broker goes, so that it stops at once
      }
    } finally {
      Directories.deleteRecursively(workDir);
    }
  }

  /** The four runs, in order, on one enforcer. */
  private final class Runs {
    private final Decisions decisions;
    private final ResultWatch results;
    private final MeterRegistry meters;
    private final Thread enforcing;
    private final String cpuTopic;
    private final String freezeTopic;
    private final ThreadMXBean threadBean = ManagementFactory.getThreadMXBean();

    Runs(Decisions decisions, ResultWatch results, MeterRegistry meters, Thread enforcing, Topics topics) {
      this.decisions = decisions;
      this.results = results;
      this.meters = meters;
      this.enforcing = enforcing;
      this.cpuTopic = topics.cpuDecisions().name();
      this.freezeTopic = topics.freezeDecisions().name();
    }

    /**
     * One decision per group, all at once: the first write to a group saves its original values to
     * the state file (written and forced to disk) before it writes, so a new task costs more.
     */
    void firstWrites() throws Exception {
      long startMs = System.currentTimeMillis();
      Span span = decisions.cpuBacklog(groups);
      List<ResultWatch.Answer> answers = results.await(cpuTopic, span, patience(groups));
      int applied = count(answers, EnforcementStatus.APPLIED);
      check(applied, span.size());
      long endMs = lastTs(answers);
      out.printf(Locale.ROOT, "First write to each group (saves its original values first): %,d of %,d applied in %s = %s"
              + " decisions/s; load average %s.%n", applied, span.size(), seconds(endMs - startMs),
          perSecond(applied, endMs - startMs), loadAverages());
      out.flush();
    }

    /** CPU decisions at a fixed rate: the latency of each, from its record to the enforcer's result. */
    void latency() throws Exception {
      Timings before = timings(EnforcementKind.CPU);
      long startMs = System.currentTimeMillis();
      Span span = decisions.cpuPaced(latencyDecisions, rate);
      List<ResultWatch.Answer> answers = results.await(cpuTopic, span, patience(latencyDecisions));
      Timings after = timings(EnforcementKind.CPU);
      int applied = count(answers, EnforcementStatus.APPLIED);
      check(applied, span.size());
      Latencies latencies = new Latencies();
      long sumMs = 0;
      for (ResultWatch.Answer answer : answers) {
        if (answer.status() == EnforcementStatus.APPLIED) {
          long latencyMs = answer.tsMs() - decisions.timestampMs(cpuTopic, answer.offset());
          latencies.record(latencyMs);
          sumMs += latencyMs;
        }
      }
      out.printf(Locale.ROOT, "Latency: %,d CPU decisions at %,.0f/s, %,d of %,d applied (%s/s from the first send to the"
          + " last result); load average %s. From the decision's record timestamp (set by the bench as it sends) to the"
          + " result's ts_ms (the enforcer's clock after the write and read-back):%n", span.size(), rate, applied, span.size(),
          perSecond(applied, lastTs(answers) - startMs), loadAverages());
      printHistogram(latencies);
      printCrossCheck(EnforcementKind.CPU, before, after, applied, meanMs(sumMs, applied));
    }

    /** FREEZE, THAW of the same group, next group, …, at a fixed rate: latency until the kernel reported the state. */
    void freeze() throws Exception {
      Timings before = timings(EnforcementKind.FREEZE);
      long startMs = System.currentTimeMillis();
      Span span = decisions.freezePaced(freezeDecisions, rate, FREEZE_LEASE_MS);
      List<ResultWatch.Answer> answers = results.await(freezeTopic, span, patience(freezeDecisions));
      Timings after = timings(EnforcementKind.FREEZE);
      int applied = count(answers, EnforcementStatus.APPLIED);
      check(applied, span.size());
      Latencies both = new Latencies();
      Map<FreezeAction, Latencies> byAction = new TreeMap<>();
      long sumMs = 0;
      for (ResultWatch.Answer answer : answers) {
        if (answer.status() == EnforcementStatus.APPLIED) {
          long latencyMs = answer.tsMs() - decisions.timestampMs(freezeTopic, answer.offset());
          both.record(latencyMs);
          sumMs += latencyMs;
          byAction.computeIfAbsent(Decisions.freezeAction(span, answer.offset()), a -> new Latencies()).record(latencyMs);
        }
      }
      out.printf(Locale.ROOT, "Freeze: %,d FREEZE and THAW decisions at %,.0f/s (each group frozen, then thawed), %,d of %,d"
              + " applied (%s/s from the first send to the last result); load average %s. From the record timestamp to the"
              + " result's ts_ms (after the kernel reported FROZEN or THAWED; each also saves a lease to the state file):%n",
          span.size(), rate, applied, span.size(), perSecond(applied, lastTs(answers) - startMs), loadAverages());
      printHistogram(both);
      byAction.forEach((action, latencies) -> out.printf(Locale.ROOT, "  %s: %s%n", action, percentiles(latencies.summary())));
      printCrossCheck(EnforcementKind.FREEZE, before, after, applied, meanMs(sumMs, applied));
    }

    /** A backlog of CPU decisions to groups written before: how many the enforcer applies per second. */
    void rate() throws Exception {
      long cpuBeforeNanos = threadBean.getThreadCpuTime(enforcing.getId());
      double meterBefore = appliedMeter();
      long startNanos = System.nanoTime();
      Span span = decisions.cpuBacklog(backlog);
      double publishSeconds = (System.nanoTime() - startNanos) / 1e9;
      List<ResultWatch.Answer> answers = results.await(cpuTopic, span, patience(backlog));
      long cpuNanos = threadBean.getThreadCpuTime(enforcing.getId()) - cpuBeforeNanos;
      int applied = count(answers, EnforcementStatus.APPLIED);
      check(applied, span.size());
      long writes = answers.stream().mapToLong(ResultWatch.Answer::writes).sum();
      // From the first result to the last: the enforcer's own pace while it has a backlog, without the first fetch.
      long spanMs = lastTs(answers) - answers.stream().mapToLong(ResultWatch.Answer::tsMs).min().orElse(0);
      out.printf(Locale.ROOT, "Rate: %,d CPU decisions published as a backlog in %s; %,d of %,d applied (results topic,"
              + " status APPLIED; meter quotaflow_enforcer_results{kind=CPU,status=APPLIED} +%,.0f); load average %s.%n",
          span.size(), seconds(Math.round(publishSeconds * 1000)), applied, span.size(), appliedMeter() - meterBefore,
          loadAverages());
      out.printf(Locale.ROOT, "  first to last result %s: %s decisions/s, %s cgroup file writes/s (%.2f per decision);"
              + " enforcer thread CPU %.3f ms per decision.%n", seconds(spanMs), perSecond(applied - 1, spanMs),
          perSecond(writes, spanMs), (double) writes / Math.max(1, applied), cpuNanos / 1e6 / Math.max(1, applied));
      out.flush();
    }

    private void printHistogram(Latencies latencies) {
      Latencies.Summary summary = latencies.summary();
      long[] counts = latencies.histogram(BUCKETS_MS);
      out.println("  latency       decisions    share  cumulative");
      long cumulative = 0;
      for (int i = 0; i < counts.length; i++) {
        cumulative += counts[i];
        String bucket = i < BUCKETS_MS.length ? "<= " + ms(BUCKETS_MS[i]) : "> " + ms(BUCKETS_MS[BUCKETS_MS.length - 1]);
        out.printf(Locale.ROOT, "  %-10s %12d  %6.1f %%  %8.1f %%%n", bucket, counts[i],
            percent(counts[i], summary.count()), percent(cumulative, summary.count()));
      }
      out.printf(Locale.ROOT, "  %s%n", percentiles(summary));
      out.flush();
    }

    /**
     * The enforcer's meters over the same run: its control delay starts at the same record timestamp
     * and ends on its clock right after the write, so its mean matches the bench's within a
     * millisecond; the decision delay (record to the enforcer starting on it) and the apply latency
     * (the cgroup write and read-back alone) split it into the Kafka hop and the cgroup work.
     */
    private void printCrossCheck(EnforcementKind kind, Timings before, Timings after, long benchCount, double benchMeanMs) {
      out.printf(Locale.ROOT, "  meters over this run (kind=%s): control delay %,d decisions, mean %.2f ms (bench: %,d, mean %.2f ms);"
              + " of it decision delay mean %.2f ms (record to the enforcer starting on it) and apply latency mean %.3f ms"
              + " (the cgroup write and read-back).%n", kind,
          after.controlCount - before.controlCount, meanMs(after.controlMs - before.controlMs, after.controlCount - before.controlCount),
          benchCount, benchMeanMs, meanMs(after.decisionMs - before.decisionMs, after.decisionCount - before.decisionCount),
          meanMs(after.applyMs - before.applyMs, after.applyCount - before.applyCount));
      out.flush();
    }

    private Timings timings(EnforcementKind kind) {
      Timer control = timer(ControlDelay.METER, kind);
      Timer decision = timer("quotaflow.enforcer.decision.delay", kind);
      Timer apply = timer("quotaflow.enforcer.apply.latency", kind);
      return new Timings(control.count(), control.totalTime(TimeUnit.MILLISECONDS), decision.count(),
          decision.totalTime(TimeUnit.MILLISECONDS), apply.count(), apply.totalTime(TimeUnit.MILLISECONDS));
    }

    private Timer timer(String name, EnforcementKind kind) {
      return meters.get(name).tag("kind", kind.name()).timer();
    }

    private double appliedMeter() {
      Counter counter = meters.find("quotaflow.enforcer.results").tag("kind", "CPU").tag("status", "APPLIED").counter();
      return counter == null ? 0 : counter.count();
    }

    private void check(int applied, long published) {
      if (applied != published) {
        allApplied = false;
      }
    }
  }

  private record Timings(long controlCount, double controlMs, long decisionCount, double decisionMs, long applyCount,
      double applyMs) {}

  /** Offsets {@code [from, to)} of one run's decisions in their topic's one partition. */
  record Span(long from, long to) {
    long size() {
      return to - from;
    }
  }

  /**
   * The bench's producer of decisions. Each group's next CPU decision is the other of the two
   * settings, so every one is a change. Each record carries the time it was sent as its timestamp,
   * kept by offset for the latencies: the decision topics are CreateTime, as the streams app's
   * decisions carry the causing sample's time.
   */
  static final class Decisions implements AutoCloseable {
    private final KafkaProducer<String, CpuDecision> cpu;
    private final KafkaProducer<String, FreezeDecision> freeze;
    private final KafkaProducer<String, ClusterConfig> cluster;
    private final Topics topics;
    private final List<TaskId> tasks;
    private final int[] writesSoFar;
    private final Map<String, Map<Long, Long>> timestampByOffset = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> nextOffset = new ConcurrentHashMap<>();
    private final AtomicLong failures = new AtomicLong();
    private int nextTask;

    Decisions(Map<String, Object> client, Topics topics, List<TaskId> tasks) {
      Map<String, Object> config = SampleFeed.producerConfig(client);
      config.put(ProducerConfig.LINGER_MS_CONFIG, 0); // the latency runs send one at a time: do not hold them
      this.cpu = new KafkaProducer<>(config, topics.cpuDecisions().keySerde().serializer(),
          topics.cpuDecisions().valueSerde().serializer());
      this.freeze = new KafkaProducer<>(config, topics.freezeDecisions().keySerde().serializer(),
          topics.freezeDecisions().valueSerde().serializer());
      this.cluster = new KafkaProducer<>(config, topics.clusterConfig().keySerde().serializer(),
          topics.clusterConfig().valueSerde().serializer());
      this.topics = topics;
      this.tasks = tasks;
      this.writesSoFar = new int[tasks.size()];
    }

    void enforcementOn() throws Exception {
      cluster.send(new ProducerRecord<>(topics.clusterConfig().name(), 0, "bench",
          ClusterConfig.newBuilder().setCluster("bench").setEnforcement(Enforcement.ON).build())).get();
    }

    /** {@code count} CPU decisions as fast as the producer takes them, round-robin over the groups. */
    Span cpuBacklog(int count) {
      long from = offsetAfterLast(topics.cpuDecisions().name());
      for (int i = 0; i < count; i++) {
        sendCpu();
      }
      cpu.flush();
      return span(topics.cpuDecisions().name(), from, count);
    }

    /** {@code count} CPU decisions paced at {@code perSecond}. */
    Span cpuPaced(int count, double perSecond) {
      long from = offsetAfterLast(topics.cpuDecisions().name());
      pace(count, perSecond, i -> sendCpu());
      cpu.flush();
      return span(topics.cpuDecisions().name(), from, count);
    }

    /** FREEZE of a group, THAW of it, FREEZE of the next, …, paced at {@code perSecond}. */
    Span freezePaced(int count, double perSecond, long leaseMs) {
      String topic = topics.freezeDecisions().name();
      long from = offsetAfterLast(topic);
      pace(count, perSecond, i -> {
        TaskId task = tasks.get((i / 2) % tasks.size());
        FreezeAction action = i % 2 == 0 ? FreezeAction.FREEZE : FreezeAction.THAW;
        long now = System.currentTimeMillis();
        FreezeDecision value = FreezeDecision.newBuilder().setNode(NODE).setTask(task.value()).setTsMs(now)
            .setAction(action).setReason(action == FreezeAction.FREEZE ? "PEAK_SLOT_BUSY" : "SLOT_FREED")
            .setQueuePosition(action == FreezeAction.FREEZE ? 0 : null)
            .setLeaseMs(action == FreezeAction.FREEZE ? leaseMs : null).build();
        freeze.send(new ProducerRecord<>(topic, 0, now, NODE + "/" + task.value(), value), (metadata, error) -> sent(topic, metadata, error));
      });
      freeze.flush();
      return span(topic, from, count);
    }

    /** The action of the decision at {@code offset} of a {@link #freezePaced} span: they alternate, FREEZE first. */
    static FreezeAction freezeAction(Span span, long offset) {
      return (offset - span.from()) % 2 == 0 ? FreezeAction.FREEZE : FreezeAction.THAW;
    }

    long timestampMs(String topic, long offset) {
      return timestampByOffset.get(topic).get(offset);
    }

    private void sendCpu() {
      int index = nextTask;
      nextTask = (nextTask + 1) % tasks.size();
      int setting = writesSoFar[index]++ % 2;
      String task = tasks.get(index).value();
      long shares = SHARES[setting];
      long now = System.currentTimeMillis();
      CpuDecision value = CpuDecision.newBuilder().setNode(NODE).setTask(task).setTsMs(now)
          .setHardLimitCpu(2).setSoftLimitCpu(QUOTA_US[setting] / (double) PERIOD_US)
          .setEffectiveLimitCpu(QUOTA_US[setting] / (double) PERIOD_US).setReason("BENCH").setApply(true)
          .setCgroup(new CgroupCpuSettings(shares, KernelCpuLimits.weightForShares(shares), QUOTA_US[setting], PERIOD_US))
          .build();
      String topic = topics.cpuDecisions().name();
      cpu.send(new ProducerRecord<>(topic, 0, now, NODE + "/" + task, value), (metadata, error) -> sent(topic, metadata, error));
    }

    private void sent(String topic, org.apache.kafka.clients.producer.RecordMetadata metadata, Exception error) {
      if (error != null) {
        failures.incrementAndGet();
        return;
      }
      timestampByOffset.computeIfAbsent(topic, t -> new ConcurrentHashMap<>()).put(metadata.offset(), metadata.timestamp());
      nextOffset.computeIfAbsent(topic, t -> new AtomicLong()).accumulateAndGet(metadata.offset() + 1, Math::max);
    }

    private long offsetAfterLast(String topic) {
      return nextOffset.computeIfAbsent(topic, t -> new AtomicLong()).get();
    }

    /** After a flush: every callback ran. A failed send is a gap the results cannot fill: it fails the run. */
    private Span span(String topic, long from, int count) {
      if (failures.get() > 0) {
        throw new IllegalStateException(failures.get() + " decision sends failed");
      }
      Span span = new Span(from, offsetAfterLast(topic));
      if (span.size() != count) {
        throw new IllegalStateException("sent " + count + " decisions to " + topic + " but offsets " + span + " came back");
      }
      return span;
    }

    private static void pace(int count, double perSecond, java.util.function.IntConsumer send) {
      Pacer pacer = new Pacer(perSecond);
      long start = System.nanoTime();
      for (int i = 0; i < count; i++) {
        while (pacer.dueBy(System.nanoTime() - start) <= i) {
          LockSupport.parkNanos(100_000);
        }
        send.accept(i);
      }
    }

    @Override
    public void close() {
      cpu.close(Duration.ofSeconds(10));
      freeze.close(Duration.ofSeconds(10));
      cluster.close(Duration.ofSeconds(10));
    }
  }

  /** Reads enforcement-results from the start on its own thread and keeps what answers a decision. */
  static final class ResultWatch implements AutoCloseable {

    /** A result: the decision it answers, its status, the enforcer's time, and the cgroup files it wrote. */
    record Answer(String topic, long offset, EnforcementStatus status, long tsMs, int writes) {}

    private final KafkaConsumer<String, EnforcementResult> consumer;
    private final Thread thread;
    private final List<Answer> answers = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean stopping;

    ResultWatch(Map<String, Object> client, Topics topics) {
      Map<String, Object> config = new HashMap<>(client);
      config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
      config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
      consumer = new KafkaConsumer<>(config, topics.enforcementResults().keySerde().deserializer(),
          topics.enforcementResults().valueSerde().deserializer());
      TopicPartition partition = new TopicPartition(topics.enforcementResults().name(), 0);
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      thread = new Thread(this::run, "bench-enforcer-results");
      thread.setDaemon(true);
    }

    ResultWatch start() {
      thread.start();
      return this;
    }

    private void run() {
      try {
        while (!stopping) {
          for (ConsumerRecord<String, EnforcementResult> record : consumer.poll(Duration.ofMillis(50))) {
            EnforcementResult r = record.value();
            if (r != null) {
              answers.add(new Answer(r.getDecisionTopic(), r.getDecisionOffset(), r.getStatus(), r.getTsMs(),
                  r.getStatus() == EnforcementStatus.APPLIED ? writes(r.getDetail()) : 0));
            }
          }
        }
      } catch (WakeupException stop) {
        // close()
      }
    }

    /** Files written, from the detail's {@code file before -> after} list (the enforcer's stable wording). */
    static int writes(String detail) {
      int count = 0;
      for (int at = detail.indexOf(" -> "); at >= 0; at = detail.indexOf(" -> ", at + 1)) {
        count++;
      }
      return count;
    }

    /**
     * The answers to the decisions of {@code span}, the first per decision, once there is one for
     * each or {@code patience} ran out (then those there are).
     */
    List<Answer> await(String topic, Span span, Duration patience) throws InterruptedException {
      long deadline = System.nanoTime() + patience.toNanos();
      while (true) {
        Map<Long, Answer> first = new TreeMap<>();
        synchronized (answers) {
          for (Answer answer : answers) {
            if (answer.topic().equals(topic) && answer.offset() >= span.from() && answer.offset() < span.to()) {
              first.putIfAbsent(answer.offset(), answer);
            }
          }
        }
        if (first.size() == span.size() || System.nanoTime() > deadline) {
          return List.copyOf(first.values());
        }
        Thread.sleep(20);
      }
    }

    @Override
    public void close() throws InterruptedException {
      stopping = true;
      consumer.wakeup();
      thread.join(10_000);
      consumer.close();
    }
  }

  /** Stops the enforcer and removes the groups, once: at the end, or from the shutdown hook on Ctrl-C. */
  private static final class Cleanup {
    private final CgroupSandbox sandbox;
    private Enforcer enforcer;
    private boolean done;

    Cleanup(CgroupSandbox sandbox) {
      this.sandbox = sandbox;
    }

    synchronized void enforcer(Enforcer started) {
      enforcer = started;
    }

    synchronized void closeEnforcer() {
      if (enforcer != null) {
        enforcer.close();
        enforcer = null;
      }
    }

    synchronized void run() throws IOException, InterruptedException {
      if (done) {
        return;
      }
      done = true;
      try {
        closeEnforcer();
      } finally {
        sandbox.close();
      }
    }

    void onExit() {
      try {
        run();
      } catch (IOException | RuntimeException e) {
        System.err.println("quotaflow bench enforcer: removing the groups failed: " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static void awaitReady(Enforcer enforcer) throws InterruptedException {
    long deadline = System.nanoTime() + READY_PATIENCE.toNanos();
    while (!enforcer.health().ready()) {
      if (enforcer.failure().isPresent() || System.nanoTime() > deadline) {
        throw new IllegalStateException("the enforcer did not become ready: " + enforcer.health().detail(),
            enforcer.failure().orElse(null));
      }
      Thread.sleep(50);
    }
  }

  private static Thread threadNamed(String name) {
    return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalStateException("no thread " + name));
  }

  /** Generous: a minute, or 10 ms per decision if that is more. A run that runs out of it reports the shortfall. */
  private static Duration patience(long decisions) {
    return Duration.ofMillis(Math.max(60_000, decisions * 10));
  }

  private static int count(List<ResultWatch.Answer> answers, EnforcementStatus status) {
    return (int) answers.stream().filter(a -> a.status() == status).count();
  }

  private static long lastTs(List<ResultWatch.Answer> answers) {
    return answers.stream().mapToLong(ResultWatch.Answer::tsMs).max().orElse(0);
  }

  static String percentiles(Latencies.Summary s) {
    return String.format(Locale.ROOT, "p50 %d ms, p99 %d ms, p99.9 %d ms, max %d ms (%,d decisions)",
        s.p50Ms(), s.p99Ms(), s.p999Ms(), s.maxMs(), s.count());
  }

  private static String ms(long ms) {
    return ms >= 1000 ? ms / 1000 + " s" : ms + " ms";
  }

  private static String seconds(long ms) {
    return String.format(Locale.ROOT, "%.2f s", ms / 1000.0);
  }

  private static String perSecond(long count, long ms) {
    return ms <= 0 ? "n/a" : String.format(Locale.ROOT, "%,.0f", count * 1000.0 / ms);
  }

  private static double percent(long part, long whole) {
    return whole == 0 ? 0 : 100.0 * part / whole;
  }

  private static double meanMs(double totalMs, long count) {
    return count == 0 ? Double.NaN : totalMs / count;
  }

  /** The machine's 1, 5 and 15-minute load averages: the run shares its cores with whatever else runs. */
  static String loadAverages() throws IOException {
    String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
    return fields[0] + " " + fields[1] + " " + fields[2];
  }
}
