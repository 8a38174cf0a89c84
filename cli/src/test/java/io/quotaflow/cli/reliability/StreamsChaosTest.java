package io.quotaflow.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cli.reliability.CommittedTail.Arrival;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.testharness.GatingMinute;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streams app as it runs in production, each process its own JVM ({@code quotaflow broker},
 * {@code quotaflow streams}), killed with SIGKILL: no commit, no leaving the group, the open
 * transaction left open. Killed and restarted at seeded random points of its work, it publishes
 * exactly what an app that ran through publishes (DESIGN "Time, order, determinism"); one of two
 * instances killed, the other takes its partitions over and decides nothing twice.
 */
class StreamsChaosTest {

  /** The kill points are drawn from it; {@code -Dquotaflow.chaos.seed=N} tries others. */
  private static final long SEED = Long.getLong("quotaflow.chaos.seed", 19L);
  private static final Duration CATCH_UP = Duration.ofSeconds(90);
  private static final long MB = 1L << 20;

  @TempDir
  static Path dirs;
  private static Path logs;
  private static BrokerProcess broker;

  @BeforeAll
  static void startBroker() throws Exception {
    // Kept after the run (the state and broker data are not): what each process printed, one file per start.
    logs = Files.createDirectories(Path.of("target", "reliability-logs", StreamsChaosTest.class.getSimpleName()));
    broker = BrokerProcess.start(Files.createDirectories(dirs.resolve("broker")), logs);
  }

  @AfterAll
  static void stopBroker() {
    if (broker != null) {
      broker.close();
    }
  }

  // ---- 1. killed at random points and restarted -------------------------------------------------

  private static final int NODES = 6;
  private static final int TASKS = GatingMinute.TASKS;
  private static final int SECONDS = GatingMinute.SECONDS;
  /** Seconds of samples produced at once, as collectors would over that time. */
  private static final int CHUNK_S = 5;
  private static final int PARTITIONS = 3;
  private static final int KILLS = 3;
  /** The kill that restarts on a wiped state directory: everything comes back from the changelogs. */
  private static final int WIPED_KILL = 1;

  /**
   * The cluster's CPU, then every task's spec, just before the samples. The cluster is large enough that no pool is
   * capped: a cap travels through pool-partials and back, so when a task takes it up depends on how far ahead its
   * partition ran (docs/pools.md); pool-state itself does not.
   */
  private static void produceConfigs(StreamsAppProcess app, long startMs) {
    produceClusterConfig(app, startMs - 2000, 100.0);
    List<ProducerRecord<String, TaskSpec>> specs = GatingMinute.specs(NODES).stream().map(spec -> new ProducerRecord<>(
        app.topics.taskSpecs().name(), null, startMs - 1000, spec.getNode() + "/" + spec.getTask(), spec)).toList();
    app.produce(app.topics.taskSpecs(), specs);
  }

  private static void produceClusterConfig(StreamsAppProcess app, long timestampMs, double totalCpu) {
    app.produce(app.topics.clusterConfig(), List.of(new ProducerRecord<>(app.topics.clusterConfig().name(), null, timestampMs,
        "main", ClusterConfig.newBuilder().setCluster("main").setTotalCpu(totalCpu).build())));
  }

  private static void produceSamples(StreamsAppProcess app, List<CgroupSample> samples) {
    app.produce(app.topics.samples(), samples.stream().map(s -> new ProducerRecord<>(app.topics.samples().name(), null,
        s.getTsMs(), s.getNode() + "/" + s.getTask(), s)).toList());
  }

  /** One kill: when, how much input it left uncommitted, and how the restart went. */
  private record Kill(int chunk, long delayMs, boolean wiped, long uncommittedRecords, List<String> taskDirsAtKill,
      String processIdBefore, String processIdAfter, long caughtUpAfterMs) {}

  /** The task directories ({@code 0_1}: sub-topology 0, partition 1) under an instance's state dir. */
  private static List<String> taskDirs(StreamsAppProcess app, Path stateDir) throws java.io.IOException {
    Path appDir = stateDir.resolve(app.applicationId);
    if (!Files.isDirectory(appDir)) {
      return List.of();
    }
    try (java.util.stream.Stream<Path> dirs = Files.list(appDir)) {
      return dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()).filter(n -> n.matches("\\d+_\\d+")).sorted().toList();
    }
  }

  /** A published record as a reader sees it: its record time and value (null: a tombstone). */
  private record Published(long timestampMs, Object value) {}

  /** Each key's records in the order they are in the topic (one key is in one partition). */
  private static <V> Map<String, List<Published>> byKey(List<Arrival<V>> arrivals) {
    Map<String, List<Published>> byKey = new TreeMap<>();
    arrivals.stream().map(Arrival::record)
        .forEach(r -> byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(new Published(r.timestamp(), r.value())));
    return byKey;
  }

  private static <V> Map<String, List<Published>> published(KafkaEnv kafka, io.quotaflow.schemas.Topic<String, V> topic) {
    try (CommittedTail<V> tail = new CommittedTail<>(kafka, topic)) {
      return byKey(tail.toEnd());
    }
  }

  private static long count(Map<String, List<Published>> byKey) {
    return byKey.values().stream().mapToLong(List::size).sum();
  }

  /** The client ids of the group's members (a streams consumer's holds its process id). */
  private static List<String> memberClientIds(KafkaEnv kafka, String groupId) throws Exception {
    try (Admin admin = kafka.admin()) {
      return admin.describeConsumerGroups(List.of(groupId)).all().get().get(groupId).members().stream()
          .map(MemberDescription::clientId).toList();
    }
  }

  @Test
  void killedAtSeededRandomPointsAndRestartedTheAppPublishesExactlyWhatAnUninterruptedOneDoes() throws Exception {
    KafkaEnv kafka = broker.kafka();
    long startMs = (System.currentTimeMillis() - 3 * 60_000) / 1000 * 1000;
    List<CgroupSample> input = GatingMinute.samples(NODES, startMs);
    StreamsAppProcess reference = new StreamsAppProcess(kafka, "ref", PARTITIONS, true, logs);
    StreamsAppProcess killed = new StreamsAppProcess(kafka, "killed", PARTITIONS, true, logs);
    for (StreamsAppProcess app : List.of(reference, killed)) {
      produceConfigs(app, startMs);
    }

    Random random = new Random(SEED);
    List<Integer> chunks = IntStream.range(1, SECONDS / CHUNK_S).boxed().collect(Collectors.toCollection(ArrayList::new));
    Collections.shuffle(chunks, random);
    List<Integer> killChunks = chunks.subList(0, KILLS).stream().sorted().toList();
    // Up to 100 ms after its chunk was written: the app is fetching, deciding or committing it, or the loops through
    // pool-partials and memory-usage that follow (each a commit interval later).
    long[] killDelaysMs = random.longs(KILLS, 0, 100).toArray();
    System.out.printf("seed %d: SIGKILL after chunks %s (of %d, %d s each), %s ms after each was written; restart %d on a wiped state dir%n",
        SEED, killChunks, SECONDS / CHUNK_S, CHUNK_S, java.util.Arrays.toString(killDelaysMs), WIPED_KILL + 1);

    List<Kill> kills = new ArrayList<>();
    long runStartNs = System.nanoTime();
    try (StreamsAppProcess.Instance ref = reference.start("streams-ref", Files.createDirectories(dirs.resolve("ref")), List.of())) {
      StreamsAppProcess.Instance instance = killed.start("streams-killed", Files.createDirectories(dirs.resolve("killed-0")), List.of());
      try {
        for (int chunk = 0; chunk < SECONDS / CHUNK_S; chunk++) {
          long fromMs = startMs + chunk * CHUNK_S * 1000L;
          List<CgroupSample> seconds = input.stream().filter(s -> s.getTsMs() >= fromMs && s.getTsMs() < fromMs + CHUNK_S * 1000L).toList();
          produceSamples(killed, seconds);
          produceSamples(reference, seconds);
          int k = killChunks.indexOf(chunk);
          if (k >= 0) {
            // A seeded point in the app's work on this chunk, not a wait for something: the kill is meant to land anywhere.
            Thread.sleep(killDelaysMs[k]);
            String before = instance.processId();
            instance.kill();
            List<String> taskDirs = taskDirs(killed, instance.stateDir);
            long uncommitted = killed.lag().values().stream().mapToLong(Long::longValue).sum();
            boolean wipe = k == WIPED_KILL;
            Path state = wipe ? Files.createDirectories(dirs.resolve("killed-" + (k + 1))) : instance.stateDir;
            long restartNs = System.nanoTime();
            instance = killed.start("streams-killed", state, List.of());
            killed.awaitCaughtUp(CATCH_UP);
            long caughtUpMs = (System.nanoTime() - restartNs) / 1_000_000;
            kills.add(new Kill(chunk, killDelaysMs[k], wipe, uncommitted, taskDirs, before, instance.processId(), caughtUpMs));
            // Caught up, the killed member has timed out: the one member left is the restarted instance.
            assertThat(memberClientIds(kafka, killed.applicationId)).as("the group's members after restart %d", k + 1)
                .singleElement().asString().contains(instance.processId());
          }
          killed.awaitCaughtUp(CATCH_UP);
          reference.awaitCaughtUp(CATCH_UP);
        }
      } finally {
        instance.close();
      }
    }
    System.out.printf("run with %d kills: %.1f s%n", KILLS, (System.nanoTime() - runStartNs) / 1e9);
    kills.forEach(kill -> System.out.printf(
        "kill after chunk %d (+%d ms): %d input records uncommitted at the kill, task dirs %s; restart on %s state dir "
            + "(process id %s), caught up %.1f s after the restart%n", kill.chunk(), kill.delayMs(), kill.uncommittedRecords(),
        kill.taskDirsAtKill(), kill.wiped() ? "a wiped" : "its own", kill.processIdBefore().equals(kill.processIdAfter()) ? "kept" : "new",
        kill.caughtUpAfterMs() / 1000.0));

    Map<String, List<Published>> expectedCpu = published(kafka, reference.topics.cpuDecisions());
    Map<String, List<Published>> expectedFreezes = published(kafka, reference.topics.freezeDecisions());
    Map<String, List<Published>> expectedPools = published(kafka, reference.topics.poolState());
    System.out.printf("reference: %d CPU decisions over %d tasks, %d freeze decisions, %d pool-state records%n",
        count(expectedCpu), expectedCpu.size(), count(expectedFreezes), count(expectedPools));
    assertThat(expectedCpu).hasSize(NODES * TASKS);
    assertThat(count(expectedCpu)).as("INITIAL plus reclaim moves for most tasks").isGreaterThan(NODES * TASKS * 2);
    assertThat(expectedFreezes.values().stream().flatMap(List::stream).map(p -> ((FreezeDecision) p.value()).getReason()))
        .contains("PEAK_SLOT_BUSY", "SLOT_FREED");
    assertThat(count(expectedPools)).as("a pool-state record a period").isGreaterThan(SECONDS / 2);

    assertThat(kills).as("every kill left input uncommitted: it landed while the app had work pending")
        .allSatisfy(kill -> assertThat(kill.uncommittedRecords()).isPositive());
    assertThat(kills).as("the killed instance left state behind to restart on").allSatisfy(kill -> assertThat(kill.taskDirsAtKill()).isNotEmpty());
    assertThat(kills).allSatisfy(kill -> assertThat(kill.processIdAfter().equals(kill.processIdBefore()))
        .as("restart after chunk %d on %s state dir keeps the process id", kill.chunk(), kill.wiped() ? "a wiped" : "its own")
        .isEqualTo(!kill.wiped()));
    // Per key, every record with its record time, in order: nothing lost, nothing doubled, nothing different.
    assertThat(published(kafka, killed.topics.cpuDecisions())).as("CPU decisions").isEqualTo(expectedCpu);
    assertThat(published(kafka, killed.topics.freezeDecisions())).as("freeze decisions").isEqualTo(expectedFreezes);
    assertThat(published(kafka, killed.topics.poolState())).as("pool-state").isEqualTo(expectedPools);
  }

  // ---- 2. two instances, one killed --------------------------------------------------------------

  private static final int LIVE_NODES = 20;
  private static final int LIVE_PARTITIONS = 6;
  /** A live task's seconds: RUNNING samples, then its GONE one; on every node one task starts and one ends each second. */
  private static final int TASK_LIFE_S = 4;
  /** A generous bound on a takeover: session timeout (6 s here) + the killed transaction's timeout + restore, doubled. */
  private static final Duration TAKEOVER_BOUND = Duration.ofSeconds(60);

  /**
   * Second {@code round} of live input on every node: its tasks aged 0 to {@link #TASK_LIFE_S} - 1 seconds, the oldest
   * sending its GONE sample. A task lives too short for the monitor's vote window (5 ticks) to move its limit, so its
   * only decision is its first sample's INITIAL one (and its GONE withdraws it): what must be decided is known exactly.
   */
  private static List<CgroupSample> liveRound(int round, long tsMs) {
    List<CgroupSample> samples = new ArrayList<>();
    for (int n = 0; n < LIVE_NODES; n++) {
      for (int age = 0; age < TASK_LIFE_S && age <= round; age++) {
        samples.add(CgroupSample.newBuilder().setNode("node-" + n).setTask("task-" + (round - age)).setTsMs(tsMs)
            .setCpuUsageUsec(age * 500_000L).setMemoryBytes(100 * MB)
            .setState(age == TASK_LIFE_S - 1 ? SampleState.GONE : SampleState.RUNNING).setSeq(round).build());
      }
    }
    return samples;
  }

  /** Sample partitions of each member of the group, by client id. */
  private static Map<String, Set<Integer>> samplePartitionsByMember(KafkaEnv kafka, StreamsAppProcess app) throws Exception {
    try (Admin admin = kafka.admin()) {
      Map<String, Set<Integer>> owned = new TreeMap<>();
      for (MemberDescription member : admin.describeConsumerGroups(List.of(app.applicationId)).all().get().get(app.applicationId).members()) {
        owned.put(member.clientId(), member.assignment().topicPartitions().stream()
            .filter(tp -> tp.topic().equals(app.topics.samples().name())).map(TopicPartition::partition)
            .collect(Collectors.toCollection(TreeSet::new)));
      }
      return owned;
    }
  }

  private static Set<Integer> ownedBy(Map<String, Set<Integer>> owners, String clientIdPrefix) {
    return owners.entrySet().stream().filter(e -> e.getKey().startsWith(clientIdPrefix)).flatMap(e -> e.getValue().stream())
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /** The first decision on {@code partition} for a sample taken at or after {@code fromMs}: only a live owner can have made it. */
  private static java.util.OptionalLong firstArrivalFor(List<Arrival<CpuDecision>> arrivals, int partition, long fromMs) {
    return arrivals.stream().filter(a -> a.record().partition() == partition && a.record().value() != null
        && a.record().value().getTsMs() >= fromMs).mapToLong(Arrival::arrivedMs).min();
  }

  private static long percentile(List<Long> sorted, double p) {
    return sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(p * sorted.size()) - 1));
  }

  @Test
  void oneOfTwoInstancesKilledTheOtherTakesOverItsPartitionsAndNothingIsDecidedTwice() throws Exception {
    KafkaEnv kafka = broker.kafka();
    StreamsAppProcess app = new StreamsAppProcess(kafka, "failover", LIVE_PARTITIONS, false, logs);
    produceClusterConfig(app, System.currentTimeMillis(), 1000.0);
    List<String> standby = List.of("--standby-replicas", "1");
    ConcurrentLinkedQueue<CgroupSample> produced = new ConcurrentLinkedQueue<>();
    java.util.concurrent.atomic.AtomicReference<Throwable> producerFailure = new java.util.concurrent.atomic.AtomicReference<>();
    ScheduledExecutorService collectors = Executors.newSingleThreadScheduledExecutor();
    try (StreamsAppProcess.Instance a = app.start("streams-a", Files.createDirectories(dirs.resolve("a")), concat(standby, "failover-a"));
        StreamsAppProcess.Instance b = app.start("streams-b", Files.createDirectories(dirs.resolve("b")), concat(standby, "failover-b"));
        KafkaProducer<String, CgroupSample> producer = StreamsAppProcess.producer(kafka, app.topics.samples());
        CommittedTail<CpuDecision> decisions = new CommittedTail<>(kafka, app.topics.cpuDecisions())) {
      a.awaitReady();
      b.awaitReady();
      // Both started before any input: no state to warm up, so the assignor splits the partitions between them at once.
      KafkaWait.until(Duration.ofSeconds(60), "both instances to own sample partitions", () -> {
        try {
          Map<String, Set<Integer>> owners = samplePartitionsByMember(kafka, app);
          return !ownedBy(owners, "failover-a").isEmpty() && !ownedBy(owners, "failover-b").isEmpty();
        } catch (Exception e) {
          return false;
        }
      });

      // Live input, as collectors send it: a round a second with the current time.
      long firstRoundMs = System.currentTimeMillis() / 1000 * 1000 + 1000;
      java.util.concurrent.atomic.AtomicInteger rounds = new java.util.concurrent.atomic.AtomicInteger();
      collectors.scheduleAtFixedRate(() -> {
        try {
          int round = rounds.get();
          for (CgroupSample sample : liveRound(round, firstRoundMs + round * 1000L)) {
            producer.send(new ProducerRecord<>(app.topics.samples().name(), sample.getNode() + "/" + sample.getTask(), sample));
            produced.add(sample);
          }
          producer.flush();
          rounds.incrementAndGet();
        } catch (Throwable e) {
          producerFailure.compareAndSet(null, e);
          throw e;
        }
      }, firstRoundMs - System.currentTimeMillis(), 1000, TimeUnit.MILLISECONDS);

      // Running: every partition has decisions of samples taken after both instances were in.
      KafkaWait.until(Duration.ofSeconds(60), "decisions on every partition", () -> {
        List<Arrival<CpuDecision>> arrivals = decisions.poll();
        return IntStream.range(0, LIVE_PARTITIONS).allMatch(p -> firstArrivalFor(arrivals, p, firstRoundMs + 1000).isPresent());
      });
      Map<String, Set<Integer>> owners = samplePartitionsByMember(kafka, app);
      Set<Integer> killedPartitions = ownedBy(owners, "failover-a");
      Set<Integer> survivorPartitions = ownedBy(owners, "failover-b");
      List<String> killedTaskDirs = taskDirs(app, a.stateDir);
      List<String> survivorTaskDirs = taskDirs(app, b.stateDir);
      // Killed while it decides a round: just after the collectors sent one, so its transaction is open.
      int roundsBeforeKill = rounds.get();
      KafkaWait.until(Duration.ofSeconds(5), "the next round of input", () -> rounds.get() > roundsBeforeKill);
      Thread.sleep(50); // a point inside the app's work on that round, not a wait for a condition
      long killMs = System.currentTimeMillis();
      a.kill();
      long uncommitted = app.lag().entrySet().stream().filter(e -> e.getKey().topic().equals(app.topics.samples().name())
          && killedPartitions.contains(e.getKey().partition())).mapToLong(Map.Entry::getValue).sum();
      String killedTransaction = app.applicationId + "-" + a.processId() + "-1";
      boolean transactionOpen = openTransactions(kafka, app.applicationId).contains(killedTransaction);
      System.out.printf("killed instance a (sample partitions %s, task dirs %s) 50 ms after round %d was sent: %d samples of its "
              + "partitions uncommitted, its transaction %s; b owns %s and holds task dirs %s (active and standby)%n", killedPartitions,
          killedTaskDirs, roundsBeforeKill, uncommitted, transactionOpen ? "open" : "not open", survivorPartitions, survivorTaskDirs);
      assertThat(survivorTaskDirs).as("standby replicas: the survivor holds a copy of every task of the killed instance")
          .containsAll(killedTaskDirs);

      Map<Integer, Long> resumedAfterMs = new TreeMap<>();
      KafkaWait.until(TAKEOVER_BOUND.plusSeconds(30), "decisions again on every partition after the kill", () -> {
        List<Arrival<CpuDecision>> arrivals = decisions.poll();
        for (int p = 0; p < LIVE_PARTITIONS; p++) {
          int partition = p;
          firstArrivalFor(arrivals, p, killMs).ifPresent(at -> resumedAfterMs.putIfAbsent(partition, at - killMs));
        }
        return resumedAfterMs.size() == LIVE_PARTITIONS;
      });
      // A few more seconds of input on the survivor alone, then the collectors stop and it catches up.
      int roundsAtTakeover = rounds.get();
      KafkaWait.until(Duration.ofSeconds(30), "three more rounds of input", () -> rounds.get() >= roundsAtTakeover + 3);
      collectors.shutdown();
      assertThat(collectors.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
      assertThat(producerFailure.get()).as("the live input's producer").isNull();
      app.awaitCaughtUp(CATCH_UP);

      List<Long> takeovers = killedPartitions.stream().map(resumedAfterMs::get).sorted().toList();
      List<Long> undisturbed = survivorPartitions.stream().map(resumedAfterMs::get).sorted().toList();
      System.out.printf("takeover, from the SIGKILL to the first read_committed decision of a sample taken after it, on the %d "
              + "partitions the killed instance owned: p50 %.1f s, max %.1f s (%s ms; session.timeout.ms %d, lowered from the "
              + "app's default 45 s; commit interval 100 ms; transaction.timeout.ms 10 s, Kafka Streams' default under exactly-once; "
              + "samples every second, so up to 1 s of it is the wait for the next one); on the survivor's own partitions: "
              + "max %.1f s (%s ms)%n",
          takeovers.size(), percentile(takeovers, 0.5) / 1000.0, takeovers.get(takeovers.size() - 1) / 1000.0, takeovers,
          StreamsAppProcess.SESSION_TIMEOUT_MS, undisturbed.isEmpty() ? 0 : undisturbed.get(undisturbed.size() - 1) / 1000.0,
          undisturbed);
      assertThat(takeovers).as("takeover per partition of the killed instance, ms").allSatisfy(ms ->
          assertThat(ms).isLessThan(TAKEOVER_BOUND.toMillis()));

      // Every task's INITIAL decision, for the sample that started it: each exactly once.
      Map<String, Long> startedAt = new TreeMap<>();
      produced.forEach(s -> startedAt.merge(s.getNode() + "/" + s.getTask(), s.getTsMs(), Math::min));
      Set<String> expected = startedAt.entrySet().stream().map(e -> e.getKey() + "@" + e.getValue())
          .collect(Collectors.toCollection(TreeSet::new));
      KafkaWait.until(CATCH_UP, "a decision for every task started", () -> decisions.poll().stream()
          .filter(d -> d.record().value() != null).map(d -> d.record().key() + "@" + d.record().value().getTsMs())
          .collect(Collectors.toSet()).containsAll(expected));
      List<Arrival<CpuDecision>> all = decisions.toEnd();
      List<String> decided = all.stream().filter(d -> d.record().value() != null)
          .map(d -> d.record().key() + "@" + d.record().value().getTsMs()).toList();
      Map<String, Long> withdrawals = all.stream().filter(d -> d.record().value() == null)
          .collect(Collectors.groupingBy(d -> d.record().key(), TreeMap::new, Collectors.counting()));
      Map<String, Long> expectedWithdrawals = produced.stream().filter(s -> s.getState() == SampleState.GONE)
          .collect(Collectors.toMap(s -> s.getNode() + "/" + s.getTask(), s -> 1L, Long::sum, TreeMap::new));
      Map<String, Long> twice = decided.stream().collect(Collectors.groupingBy(k -> k, TreeMap::new, Collectors.counting()));
      twice.values().removeIf(n -> n == 1);
      System.out.printf("%d rounds of %d nodes: %d tasks started, %d decisions and %d tombstones read back%n", rounds.get(),
          LIVE_NODES, expected.size(), decided.size(), withdrawals.values().stream().mapToLong(Long::longValue).sum());
      assertThat(twice).as("(task, sample time) decided more than once").isEmpty();
      assertThat(new TreeSet<>(decided)).as("decided (task, sample time)").isEqualTo(expected);
      assertThat(withdrawals).as("tombstones per task: each GONE withdraws its decision once").isEqualTo(expectedWithdrawals);
    } finally {
      collectors.shutdownNow();
    }
  }

  /** The ongoing transactions of the app's producers, by transactional id (the app id, a process id, a thread number). */
  private static List<String> openTransactions(KafkaEnv kafka, String applicationId) throws Exception {
    try (Admin admin = kafka.admin()) {
      return admin.listTransactions().all().get().stream()
          .filter(t -> t.transactionalId().startsWith(applicationId) && t.state() == org.apache.kafka.clients.admin.TransactionState.ONGOING)
          .map(org.apache.kafka.clients.admin.TransactionListing::transactionalId).sorted().toList();
    }
  }

  private static List<String> concat(List<String> args, String clientId) {
    List<String> all = new ArrayList<>(args);
    // The consumer's client id starts with it, so the group's description says which instance owns what.
    all.addAll(List.of("--streams-config", "client.id=" + clientId));
    return all;
  }
}
