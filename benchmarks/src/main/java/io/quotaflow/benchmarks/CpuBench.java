package io.quotaflow.benchmarks;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.process.Durations;
import io.quotaflow.embedded.Directories;
import io.quotaflow.embedded.EmbeddedPair;
import io.quotaflow.schemas.NodePartitioning;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.Enforcement;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import io.quotaflow.schemas.registry.SchemaRegistryClients;
import io.quotaflow.streams.topology.QuotaflowTopology;
import io.quotaflow.streams.topology.StreamsConfigFactory;
import io.quotaflow.streams.topology.StreamsRunner;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import java.util.function.LongUnaryOperator;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code quotaflow bench cpu}: the streams app's throughput and end-to-end latency on synthetic
 * samples, against an embedded broker and registry in this process (so broker, app, feed and
 * reader share the machine's cores, as the targets assume). Each run first measures the raw
 * baseline (the same records through a plain producer and a read_committed consumer), then the app
 * on a fresh topic set and application id.
 */
@Command(
    name = "cpu",
    mixinStandardHelpOptions = true,
    description = {
        "The streams app's sustained samples/s and sample → decision latency on N nodes × M synthetic tasks.",
        "Also the raw producer → consumer baseline of the same records (see docs/benchmarks.md)."})
public final class CpuBench implements Callable<Integer> {

  /** The feed keeps a few arrays per task in this JVM next to the broker and the app. */
  static final int MAX_TASKS = 10_000_000;
  /** Kafka Streams names a store's changelog {@code <application.id>-<store>-changelog}. */
  private static final String CHANGELOG_SUFFIX = "-changelog";

  @Option(names = "--nodes", paramLabel = "N", defaultValue = "100", description = "Synthetic nodes (default: ${DEFAULT-VALUE}).")
  int nodes;

  @Option(names = "--tasks-per-node", paramLabel = "N", defaultValue = "50", description = "Tasks on each node (default: ${DEFAULT-VALUE}).")
  int tasksPerNode;

  @Option(names = "--partitions", paramLabel = "N", defaultValue = "12", description = "Partitions of every node-keyed topic (default: ${DEFAULT-VALUE}).")
  int partitions;

  @Option(names = "--runs", paramLabel = "RUN[,...]", defaultValue = "throughput,latency", split = ",",
      description = "Runs, in order: throughput (commit.interval.ms 1000, linger.ms 100), latency (the app's own: "
          + StreamsConfigFactory.DEFAULT_COMMIT_INTERVAL_MS + ", linger.ms 5) (default: ${DEFAULT-VALUE}).")
  List<String> runs;

  @Option(names = "--latency-rate", paramLabel = "SAMPLES_PER_S", defaultValue = "20000", description = "Samples/s offered in the latency run (default: ${DEFAULT-VALUE}).")
  double latencyRate;

  @Option(names = "--backlog", paramLabel = "SAMPLES", defaultValue = "50000",
      description = "Samples the throughput run's feed keeps ahead of what the reader has taken (default: ${DEFAULT-VALUE}).")
  long backlog;

  @Option(names = "--threads", paramLabel = "N", defaultValue = "2", description = "Stream threads of the app (default: ${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "--warmup", defaultValue = "60s", converter = Durations.Positive.class, paramLabel = "DURATION",
      description = "Time before each app window, for the JIT and caches (default: ${DEFAULT-VALUE}).")
  Duration warmupTime;

  @Option(names = "--window", defaultValue = "60s", converter = Durations.Positive.class, paramLabel = "DURATION",
      description = "Measured window of each app run (default: ${DEFAULT-VALUE}).")
  Duration windowTime;

  @Option(names = "--baseline-window", defaultValue = "20s", converter = Durations.Positive.class, paramLabel = "DURATION",
      description = "Measured window of each raw baseline, after a quarter of it as warm-up (default: ${DEFAULT-VALUE}).")
  Duration baselineTime;

  @Option(names = "--streams-config", paramLabel = "KEY=VALUE",
      description = "A Kafka Streams setting for the app in every run, repeatable; wins over the bench's (e.g. statestore.cache.max.bytes=134217728).")
  Map<String, String> streamsConfig = new HashMap<>();

  @Option(names = "--phase-samples", paramLabel = "N", defaultValue = "16",
      description = "Samples a task stays busy, then idle (default: ${DEFAULT-VALUE}).")
  int phaseSamples;

  @Option(names = "--scale", paramLabel = "TASKS[,TASKS...]", split = ",",
      description = "Instead of --runs: a throughput run at each task count (--tasks-per-node tasks per node), then one table of throughput, CPU and heap against tasks.")
  List<Integer> scale = new ArrayList<>();

  @Option(names = "--out-dir", paramLabel = "DIR",
      description = "With --scale: also write cpu-scale.csv and the chart cpu-scale.svg here.")
  Path outDir;

  @Option(names = "--seed", paramLabel = "SEED", defaultValue = "1", description = "Seed of the tasks' phase offsets (default: ${DEFAULT-VALUE}).")
  long seed;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    List<CpuRun> plan = plan();
    if (nodes < 1 || tasksPerNode < 1 || partitions < 1 || threads < 1 || backlog < 1 || phaseSamples < 1
        || !(latencyRate > 0)) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--nodes, --tasks-per-node, --partitions, --threads, --backlog, --phase-samples and --latency-rate must be positive");
    }
    if ((long) nodes * tasksPerNode > MAX_TASKS) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          String.format(Locale.ROOT, "--nodes × --tasks-per-node is at most %,d tasks", MAX_TASKS));
    }
    for (int tasks : scale) {
      if (tasks < tasksPerNode || tasks % tasksPerNode != 0 || tasks > MAX_TASKS) {
        throw new CommandLine.ParameterException(spec.commandLine(), String.format(Locale.ROOT,
            "--scale: %,d tasks is not a whole number of nodes of %d tasks (--tasks-per-node), up to %,d tasks",
            tasks, tasksPerNode, MAX_TASKS));
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    String workload = scale.isEmpty()
        ? String.format(Locale.ROOT, "%d nodes × %d tasks = %d tasks", nodes, tasksPerNode, nodes * tasksPerNode)
        : String.format(Locale.ROOT, "throughput at %s tasks (%d per node)", scale, tasksPerNode);
    out.printf(Locale.ROOT, "quotaflow bench cpu: %s, %d partitions, %d stream thread(s), "
            + "exactly_once_v2; warm-up %s, window %s; raw baseline window %s; %d cores, max heap %d MiB%s.%n",
        workload, partitions, threads, Durations.format(warmupTime),
        Durations.format(windowTime), Durations.format(baselineTime), Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() >> 20, streamsConfig.isEmpty() ? "" : "; app settings " + new TreeMap<>(streamsConfig));
    out.flush();
    List<CpuFigures> figures = new ArrayList<>();
    try (EmbeddedPair pair = EmbeddedPair.start()) {
      Map<String, Object> client = Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, pair.bootstrapServers());
      SchemaRegistryClient registry = SchemaRegistryClients.create(pair.registryUrl());
      out.println("Broker " + pair.bootstrapServers() + ", registry " + pair.registryUrl());
      out.flush();
      try (Admin admin = Admin.create(new HashMap<>(client))) {
        if (scale.isEmpty()) {
          for (CpuRun run : plan) {
            figures.add(new Measurement(run, nodes, "", client, registry, out, admin).run());
          }
        } else {
          for (int tasks : scale) {
            figures.add(new Measurement(CpuRun.THROUGHPUT, tasks / tasksPerNode, "-" + tasks, client, registry, out, admin).run());
          }
        }
      }
    }
    CpuReport.print(out, figures);
    if (!scale.isEmpty()) {
      CpuScale.print(out, figures);
      if (outDir != null) {
        for (Path written : CpuScale.write(outDir, figures)) {
          out.println("Wrote " + written.toAbsolutePath());
        }
      }
      out.flush();
    }
    return 0;
  }

  private List<CpuRun> plan() {
    try {
      return runs.stream().map(CpuRun::parse).toList();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--runs: " + e.getMessage());
    }
  }

  /** One run: its raw baseline, then the app, each on topics of their own. */
  private final class Measurement {
    private final CpuRun run;
    private final int runNodes;
    private final Map<String, Object> client;
    private final SchemaRegistryClient registry;
    private final PrintWriter out;
    private final Admin admin;
    private final Topics topics;
    private final String applicationId;

    Measurement(CpuRun run, int runNodes, String labelSuffix, Map<String, Object> client, SchemaRegistryClient registry,
        PrintWriter out, Admin admin) {
      this.run = run;
      this.runNodes = runNodes;
      this.client = client;
      this.registry = registry;
      this.out = out;
      this.admin = admin;
      String prefix = "bench-" + run.label() + labelSuffix + ".";
      this.topics = Topics.create(new Topics.Settings(prefix, partitions, true), registry);
      this.applicationId = prefix + "streams";
    }

    CpuFigures run() throws Exception {
      Window baseline = baseline();
      // Made before the heap is measured: the feed's per-task arrays are the bench's, not the app's.
      CpuWorkload workload = new CpuWorkload(runNodes, tasksPerNode, phaseSamples, seed);
      long heapBefore = usedHeapAfterGc();
      Path stateDir = Directories.temporary("quotaflow-bench-cpu-");
      SimpleMeterRegistry meters = new SimpleMeterRegistry();
      Map<String, Object> streams = new HashMap<>();
      streams.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
      streams.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
      streams.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, run.commitIntervalMs);
      streams.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, threads);
      streams.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), run.producerLingerMs);
      streams.putAll(streamsConfig);
      Window app;
      long heapDuring;
      long heapAtRest;
      try (StreamsRunner runner = StreamsRunner.start(
          new StreamsRunner.Settings(client, streams, topics.settings(), Optional.empty()), registry, meters)) {
        if (!runner.awaitRunning(Duration.ofMinutes(2))) {
          throw new IllegalStateException("the streams app did not reach RUNNING within 2 minutes: " + runner.state());
        }
        publishSetup(client, topics, partitions, workload);
        app = appWindow(workload, meters.counter("quotaflow.streams.samples"));
        // The app still runs, with all its tasks' state; the feed and the reader (and their buffers) are closed.
        heapDuring = usedHeapAfterGc();
        if (!runner.health().live()) {
          throw new IllegalStateException("the streams app stopped during the run (" + runner.state() + "): its figures mean nothing");
        }
        // Under load the heap holds, besides the tasks, whatever the app has written since its last commit: up to a
        // commit interval of writes, so the reading above depends on where in that interval it fell. Once every
        // sample sent is committed, nothing waits: what is left is what the app keeps for its tasks.
        awaitAllCommitted(Duration.ofMinutes(1));
        heapAtRest = usedHeapAfterGc();
      } finally {
        Directories.deleteRecursively(stateDir);
      }
      double stateBytes = stateBytesPerTask();
      reportBrokerLog();
      long dlq = endOffsetSum(topics.dlq().name());
      long commitIntervalMs = setting(streams, StreamsConfig.COMMIT_INTERVAL_MS_CONFIG);
      long lingerMs = setting(streams, StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG));
      String offered = run == CpuRun.THROUGHPUT ? "backlog " + backlog : String.format(Locale.ROOT, "%,.0f/s", latencyRate);
      return new CpuFigures(run, commitIntervalMs, lingerMs, workload.size(), offered,
          app.takenPerSecond(), app.receivedPerSecond(), app.backlogAtEnd(),
          app.latency(), baseline.takenPerSecond(), baseline.latency(),
          (double) (heapDuring - heapBefore) / workload.size(), (double) (heapAtRest - heapBefore) / workload.size(),
          stateBytes, dlq, app.sendFailures() + baseline.sendFailures(),
          app.streamCpuMicrosPerSample());
    }

    /**
     * The app's window, the feed and the reader its own: they are unreachable once it returns. Held in {@link #run}'s
     * frame, a slot the interpreter still counted as live after the try block kept them, and the reader's latencies
     * (a long per decision: 17 MiB in a 30 s window at 5,000 tasks, ~32 MiB in a 60 s one at 100,000) were read as
     * the app's heap.
     */
    private Window appWindow(CpuWorkload workload, Counter taken) throws Exception {
      progress("app: warming up for %s", Durations.format(warmupTime));
      try (RecordWatch decisions = new RecordWatch(client, topics.cpuDecisions().name(), partitions).start();
          SampleFeed feed = new SampleFeed(client, workload, topics.samples().name(), partitions,
              topics.samples().valueSerde().serializer(), allowance(() -> (long) taken.count())).start()) {
        return measure(feed, decisions, this::committedSamples, warmupTime, windowTime);
      }
    }

    /** The same records, the same feed rule, through a plain producer to a read_committed consumer. */
    private Window baseline() throws Exception {
      String topic = topics.settings().prefix() + "baseline";
      admin.createTopics(List.of(new NewTopic(topic, Optional.of(partitions), Optional.empty())
          .configs(topics.samples().configs()))).all().get();
      CpuWorkload workload = new CpuWorkload(runNodes, tasksPerNode, phaseSamples, seed);
      progress("raw baseline: warming up for %s", Durations.format(baselineTime.dividedBy(4)));
      Window window;
      try (RecordWatch reader = new RecordWatch(client, topic, partitions).start()) {
        try (SampleFeed feed = new SampleFeed(client, workload, topic, partitions,
            topics.samples().valueSerde().serializer(), allowance(reader::received)).start()) {
          window = measure(feed, reader, reader::received, baselineTime.dividedBy(4), baselineTime);
        }
      }
      admin.deleteTopics(List.of(topic)).all().get();
      return window;
    }

    /**
     * What the feed may have sent after so many nanoseconds: in the throughput run what the reader
     * has {@code taken} plus the backlog, in the latency run the fixed rate's schedule.
     */
    private LongUnaryOperator allowance(LongSupplier taken) {
      return run == CpuRun.THROUGHPUT ? elapsed -> taken.getAsLong() + backlog : new Pacer(latencyRate)::dueBy;
    }

    private Window measure(SampleFeed feed, RecordWatch reader, LongSupplier taken,
        Duration warmup, Duration window) throws InterruptedException {
      Thread.sleep(warmup.toMillis()); // a benchmark, not a test: the JIT and the caches need the time
      long startNanos = System.nanoTime();
      long takenAtStart = taken.getAsLong();
      Optional<Map<String, Long>> threadsAtStart = threadCpu();
      long streamCpuAtStart = StreamThreadsCpu.nanos();
      long sentAtStart = feed.sent();
      long receivedAtStart = reader.received();
      reader.openWindow(System.currentTimeMillis());
      progress("measuring for %s", Durations.format(window));
      Thread.sleep(window.toMillis());
      long takenAtEnd = taken.getAsLong();
      long streamCpuNanos = StreamThreadsCpu.nanos() - streamCpuAtStart;
      Optional<Map<String, Long>> threadsAtEnd = threadCpu();
      long sentAtEnd = feed.sent();
      long receivedAtEnd = reader.received();
      double seconds = (System.nanoTime() - startNanos) / 1e9;
      reader.closeWindow(System.currentTimeMillis());
      // Decisions stamped inside the window may still be in an open transaction: wait out a few commits.
      Thread.sleep(3 * run.commitIntervalMs + 2_000);
      Latencies.Summary latency = reader.stop();
      Window measured = new Window((takenAtEnd - takenAtStart) / seconds, (sentAtEnd - sentAtStart) / seconds,
          (receivedAtEnd - receivedAtStart) / seconds, sentAtEnd - takenAtEnd, latency, feed.failures(),
          takenAtEnd > takenAtStart ? streamCpuNanos / 1e3 / (takenAtEnd - takenAtStart) : Double.NaN);
      progress("%,.0f/s taken, %,.0f/s sent, p99 %d ms, stream threads %.1f µs CPU/sample", measured.takenPerSecond(),
          measured.sentPerSecond(), latency.p99Ms(), measured.streamCpuMicrosPerSample());
      if (threadsAtStart.isPresent() && threadsAtEnd.isPresent() && takenAtEnd > takenAtStart) {
        progress("%s", CpuByThread.of(CpuByThread.difference(threadsAtStart.get(), threadsAtEnd.get()), streamCpuNanos,
            takenAtEnd - takenAtStart, seconds).line());
      }
      return measured;
    }

    /** This JVM's threads' CPU by name; empty where {@code /proc} cannot be read (not Linux), and the line is left out. */
    private Optional<Map<String, Long>> threadCpu() {
      try {
        return Optional.of(ThreadCpu.byName(ProcessHandle.current().pid()));
      } catch (IOException unreadable) {
        return Optional.empty();
      }
    }

    /**
     * What the broker appended per sample the app took over the whole run (warm-up included): the
     * samples themselves, the app's changelogs, and its output topics; for sizing disks (docs/scaling.md).
     */
    private void reportBrokerLog() throws Exception {
      long samples = committedSamples();
      if (samples <= 0) {
        return;
      }
      long samplesBytes = 0;
      long changelogBytes = 0;
      long otherBytes = 0;
      Map<String, Long> byStore = new TreeMap<>();
      String changelogPrefix = applicationId + "-";
      for (Map.Entry<String, Long> topic : BrokerLogs.bytesByTopic(admin).entrySet()) {
        String name = topic.getKey();
        if (name.equals(topics.samples().name())) {
          samplesBytes += topic.getValue();
        } else if (name.startsWith(changelogPrefix) && name.endsWith(CHANGELOG_SUFFIX)) {
          changelogBytes += topic.getValue();
          byStore.put(name.substring(changelogPrefix.length(), name.length() - CHANGELOG_SUFFIX.length()), topic.getValue());
        } else if (name.startsWith(topics.settings().prefix())) {
          otherBytes += topic.getValue();
        }
      }
      StringBuilder stores = new StringBuilder();
      byStore.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
          .filter(store -> store.getValue() >= samples) // 1 B per sample or more
          .forEach(store -> stores.append(stores.isEmpty() ? "" : ", ")
              .append(String.format(Locale.ROOT, "%s %.0f", store.getKey(), (double) store.getValue() / samples)));
      progress("broker log per sample taken (%,d samples): samples %.0f B, changelogs %.0f B (%s), the app's other topics %.0f B",
          samples, (double) samplesBytes / samples, (double) changelogBytes / samples, stores,
          (double) otherBytes / samples);
    }

    private void awaitAllCommitted(Duration timeout) throws Exception {
      long sent = endOffsetSum(topics.samples().name());
      long deadline = System.nanoTime() + timeout.toNanos();
      while (committedSamples() < sent) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(String.format(Locale.ROOT,
              "the app had not committed the %,d samples sent %s after the feed stopped (%,d committed)", sent,
              Durations.format(timeout), committedSamples()));
        }
        Thread.sleep(100);
      }
    }

    private long committedSamples() {
      return committedOffsets(admin, applicationId, topics.samples().name());
    }

    private long endOffsetSum(String topic) throws Exception {
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      for (int p = 0; p < partitions; p++) {
        latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
      }
      return admin.listOffsets(latest).all().get().values().stream().mapToLong(i -> i.offset()).sum();
    }

    /**
     * Key and value bytes of each task's latest entries in the task-state and task-spec changelogs (what a task
     * keeps on disk), averaged over the tasks with a state.
     */
    private double stateBytesPerTask() {
      Map<String, Object> config = new HashMap<>(client);
      config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
      config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
      List<String> changelogs = QuotaflowTopology.taskChangelogs(applicationId);
      List<Map<String, Integer>> latest = new ArrayList<>();
      try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
          new ByteArrayDeserializer())) {
        for (String changelog : changelogs) {
          latest.add(latestEntryBytes(consumer, changelog));
        }
      }
      long bytes = latest.stream().flatMap(m -> m.values().stream()).mapToLong(Integer::longValue).sum();
      int tasks = latest.get(0).size();
      return tasks == 0 ? Double.NaN : (double) bytes / tasks;
    }

    /** Key and value bytes of each key's latest entry in {@code changelog}; a deleted key has none. */
    private Map<String, Integer> latestEntryBytes(KafkaConsumer<byte[], byte[]> consumer, String changelog) {
      Map<String, Integer> latest = new HashMap<>();
      List<TopicPartition> all = new ArrayList<>();
      for (int p = 0; p < partitions; p++) {
        all.add(new TopicPartition(changelog, p));
      }
      consumer.assign(all);
      consumer.seekToBeginning(all);
      Map<TopicPartition, Long> end = consumer.endOffsets(all);
      while (all.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          String key = new String(record.key(), StandardCharsets.UTF_8);
          if (record.value() == null) {
            latest.remove(key);
          } else {
            latest.put(key, record.key().length + record.value().length);
          }
        }
      }
      return latest;
    }

    private void progress(String format, Object... args) {
      out.println("[" + run.label() + "] " + String.format(Locale.ROOT, format, args));
      out.flush();
    }
  }

  /** What a cluster has before samples flow: the cluster config (enforcement ON), each node's status, each task's spec. */
  static void publishSetup(Map<String, Object> client, Topics topics, int partitions, CpuWorkload workload) {
    long now = System.currentTimeMillis();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(SampleFeed.producerConfig(client),
        new ByteArraySerializer(), new ByteArraySerializer())) {
      send(producer, topics.clusterConfig(), 0, "bench",
          ClusterConfig.newBuilder().setCluster("bench").setEnforcement(Enforcement.ON).build(), now);
      for (NodeStatus status : workload.nodeStatuses(now)) {
        send(producer, topics.nodes(), NodePartitioning.partitionOfKey(status.getNode(), partitions), status.getNode(),
            status, now);
      }
      for (int task = 0; task < workload.size(); task++) {
        String key = workload.key(task);
        send(producer, topics.taskSpecs(), NodePartitioning.partitionOfKey(key, partitions), key, workload.spec(task, now), now);
      }
      producer.flush();
    }
  }

  private static <V> void send(KafkaProducer<byte[], byte[]> producer, Topic<String, V> topic, int partition,
      String key, V value, long tsMs) {
    producer.send(new ProducerRecord<>(topic.name(), partition, tsMs, key.getBytes(StandardCharsets.UTF_8),
        topic.valueSerde().serializer().serialize(topic.name(), value)));
  }

  /** Records of {@code topic} the app {@code applicationId} has committed: its consumer group's offsets (exact under EOS). */
  static long committedOffsets(Admin admin, String applicationId, String topic) {
    try {
      Map<TopicPartition, OffsetAndMetadata> offsets =
          admin.listConsumerGroupOffsets(applicationId).partitionsToOffsetAndMetadata().get();
      return offsets.entrySet().stream()
          .filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
          .mapToLong(e -> e.getValue().offset()).sum();
    } catch (Exception e) {
      throw new IllegalStateException("cannot read the app's committed offsets: " + e, e);
    }
  }

  /** A setting of the app as the run had it: the bench's value, or the {@code --streams-config} one that won over it. */
  private static long setting(Map<String, Object> streams, String key) {
    return Long.parseLong(String.valueOf(streams.get(key)).trim());
  }

  /**
   * The heap in use as a full collection left it: each heap pool's usage after its last collection. The heap's
   * usage read a moment after {@code System.gc()} also counted what the app, the broker and the clients had
   * allocated since, garbage or not: up to tens of MiB while they ran flat out, more the faster they ran.
   */
  private static long usedHeapAfterGc() {
    System.gc();
    long used = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      MemoryUsage afterGc = pool.getType() == MemoryType.HEAP ? pool.getCollectionUsage() : null;
      if (afterGc != null) {
        used += afterGc.getUsed();
      }
    }
    return used;
  }

  /** One measured window: rates per second; backlog is sent minus taken at its end. */
  private record Window(double takenPerSecond, double sentPerSecond, double receivedPerSecond,
      long backlogAtEnd, Latencies.Summary latency, long sendFailures, double streamCpuMicrosPerSample) {}
}
