package io.quotaflow.enforcer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.CgroupParent;
import io.quotaflow.cgroups.PlainFileTree;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.schemas.NodePartitioning;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.GateMode;
import io.quotaflow.schemas.avro.GateTable;
import io.quotaflow.schemas.avro.GateTableTask;
import io.quotaflow.schemas.avro.GateTaskRole;
import io.quotaflow.testharness.FuzzBudget;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.WithKafka;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The enforcer's feed fuzzed on a real broker, over a directory tree laid out like a v1 mount (as
 * SymlinkedGroupTest): bytes that do not decode on {@code cpu-decisions}, {@code freeze-decisions} and
 * {@code cluster-config}; decisions for tasks {@code ..}, {@code ../victim}, ids over 128 characters or
 * not UTF-8, a symlink out of the parent, a value naming another task; and on {@code gate-tables},
 * tables that do not decode and tables whose rows ask the reflex to watch such ids (threshold 0, so
 * any reading would be a crossing). Each is counted (undecodable, refused) and, where ours, answered
 * REJECTED; no file outside the good groups changes and the reflex freezes nothing; a valid decision
 * sent after each bad one is applied; enforcement stays ON.
 */
@WithKafka
class DecisionFeedFuzzTest {

  /** Bad records in CI; {@code -Pfuzz-long} multiplies them (FuzzBudget). */
  private static final int BAD_RECORDS = 60;

  @TempDir Path root;
  @TempDir Path stateDir;

  private enum Kind {
    UNDECODABLE_CPU, UNDECODABLE_FREEZE, UNDECODABLE_CLUSTER, UNSAFE_ID, MISMATCH, SYMLINK, UNDECODABLE_GATE, HOSTILE_GATE
  }

  /** Ids a gate table's rows may name that must never be read or frozen: unsafe, out of the parent, a symlink out. */
  private static final String[] HOSTILE_ROWS = {"..", ".", "../victim", "../../memory/victim", ".hidden", "a/b",
      "x".repeat(129), "evil", "victim"};

  @Test
  void badRecordsAreCountedAndRefusedAndNothingOutsideTheGoodGroupsIsWritten(KafkaEnv env) throws Exception {
    long seed = FuzzBudget.seedOrRandom();
    Random random = new Random(seed);
    int badCount = BAD_RECORDS * FuzzBudget.scale();
    int goodCount = badCount / 4;
    PlainFileTree tree = PlainFileTree.v1(root, "qf");
    for (int i = 0; i < goodCount; i++) {
      tree.v1Task("qf", "good-" + i);
    }
    for (String controller : List.of("cpu", "cpuacct", "memory", "freezer")) {
      tree.v1Group(controller, "victim");
      Files.createSymbolicLink(tree.path(controller + "/qf/evil"), tree.path(controller + "/victim"));
    }
    Map<Path, String> before = snapshot();

    PrometheusMeterRegistry meters = OpsServer.newRegistry("enforcer");
    try (EnforcerFixture kafka = new EnforcerFixture(env);
        KafkaProducer<byte[], byte[]> raw = rawProducer(env)) {
      Enforcer enforcer = kafka.start(new CgroupConfig(root, CgroupLayout.V1, CgroupParent.at("/qf")),
          stateDir.resolve("state.json"), false, java.time.Duration.ofSeconds(5), meters);
      int partition = NodePartitioning.partitionOfNode(EnforcerFixture.NODE, EnforcerFixture.PARTITIONS);
      byte[] validCpu = kafka.topics.cpuDecisions().valueSerde().serializer().serialize(kafka.topics.cpuDecisions().name(),
          EnforcerFixture.cpuDecision(EnforcerFixture.NODE, "t", true, 2000, 50_000));
      Map<Kind, Integer> sent = new TreeMap<>();
      List<RecordMetadata> good = new ArrayList<>();
      for (int i = 0; i < badCount; i++) {
        Kind kind = Kind.values()[random.nextInt(Kind.values().length)];
        sent.merge(kind, 1, Integer::sum);
        raw.send(badRecord(kafka, kind, random, partition, validCpu)).get();
        if (i % 4 == 3 && good.size() < goodCount) {
          int n = good.size();
          good.add(kafka.cpu("good-" + n, true, 1000 + n, 10_000 + n));
        }
      }
      for (RecordMetadata decision : good) {
        assertThat(kafka.awaitAnswer(decision).getStatus()).as("a good decision after bad ones").isEqualTo(EnforcementStatus.APPLIED);
      }
      int refusedCount = sent.getOrDefault(Kind.UNSAFE_ID, 0) + sent.getOrDefault(Kind.MISMATCH, 0);
      List<EnforcementResult> rejected = kafka.resultsUntil("every bad decision of this node answered REJECTED",
          seen -> seen.stream().filter(r -> r.getStatus() == EnforcementStatus.REJECTED).count()
              >= refusedCount + sent.getOrDefault(Kind.SYMLINK, 0) + sent.getOrDefault(Kind.UNDECODABLE_CPU, 0)
              + sent.getOrDefault(Kind.UNDECODABLE_FREEZE, 0));
      System.out.printf("DecisionFeedFuzzTest: seed %d, %d bad records %s, %d good decisions applied, %d REJECTED results%n",
          seed, badCount, sent, good.size(), rejected.stream().filter(r -> r.getStatus() == EnforcementStatus.REJECTED).count());

      assertThat(counter(meters, "quotaflow.enforcer.undecodable", "topic", kafka.topics.cpuDecisions().name()))
          .isEqualTo(sent.getOrDefault(Kind.UNDECODABLE_CPU, 0));
      assertThat(counter(meters, "quotaflow.enforcer.undecodable", "topic", kafka.topics.freezeDecisions().name()))
          .isEqualTo(sent.getOrDefault(Kind.UNDECODABLE_FREEZE, 0));
      assertThat(counter(meters, "quotaflow.enforcer.undecodable", "topic", kafka.topics.clusterConfig().name()))
          .isEqualTo(sent.getOrDefault(Kind.UNDECODABLE_CLUSTER, 0));
      assertThat(counterOrZero(meters, "quotaflow.enforcer.undecodable", "topic", kafka.topics.gateTables().name()))
          .isEqualTo(sent.getOrDefault(Kind.UNDECODABLE_GATE, 0));
      assertThat(meters.get("quotaflow.enforcer.reflex.freezes").counter().count()).as("reflex freezes").isZero();
      assertThat(rejected).noneMatch(r -> r.getStatus() == EnforcementStatus.REFLEX_FROZEN);
      assertThat(counter(meters, "quotaflow.enforcer.refused", "reason", "unsafe_task_id"))
          .isEqualTo(sent.getOrDefault(Kind.UNSAFE_ID, 0));
      assertThat(counter(meters, "quotaflow.enforcer.refused", "reason", "key_value_mismatch"))
          .isEqualTo(sent.getOrDefault(Kind.MISMATCH, 0));
      assertThat(enforcer.health().live()).isTrue();
      assertThat(enforcer.health().ready()).isTrue();
      assertThat(meters.get("quotaflow.enforcer.mode").tag("mode", "ON").gauge().value()).as("enforcement stays ON").isEqualTo(1.0);

      Map<Path, String> after = snapshot();
      Map<Path, String> changed = new TreeMap<>();
      after.forEach((path, content) -> {
        if (!content.equals(before.get(path))) {
          changed.put(root.relativize(path), content);
        }
      });
      assertThat(after.keySet()).as("no file created or removed").isEqualTo(before.keySet());
      assertThat(changed.keySet()).as("only the good groups' CPU files are written")
          .allMatch(p -> p.toString().matches("cpu/qf/good-\\d+/cpu\\.(shares|cfs_quota_us|cfs_period_us)"));
      assertThat(Files.readString(root.resolve("cpu/qf/good-0/cpu.shares"))).isEqualTo("1000");
    }
  }

  private ProducerRecord<byte[], byte[]> badRecord(EnforcerFixture kafka, Kind kind, Random random, int partition,
      byte[] validCpu) {
    String cpuTopic = kafka.topics.cpuDecisions().name();
    byte[] ownKey = (EnforcerFixture.NODE + "/t-" + random.nextInt(1000)).getBytes(StandardCharsets.UTF_8);
    return switch (kind) {
      case UNDECODABLE_CPU -> new ProducerRecord<>(cpuTopic, partition, ownKey, undecodable(random, validCpu));
      case UNDECODABLE_FREEZE -> new ProducerRecord<>(kafka.topics.freezeDecisions().name(), partition, ownKey,
          undecodable(random, validCpu));
      case UNDECODABLE_CLUSTER -> new ProducerRecord<>(kafka.topics.clusterConfig().name(), 0,
          "main".getBytes(StandardCharsets.UTF_8), undecodable(random, validCpu));
      case UNSAFE_ID -> {
        String[] tasks = {"..", ".", "../victim", "../../cpu/victim", ".hidden", "a/b", "x".repeat(129), "a b", "", "t\u00e9"};
        boolean freeze = random.nextBoolean();
        byte[] key;
        String task;
        if (random.nextInt(4) == 0) { // not UTF-8
          task = "t";
          byte[] prefix = (EnforcerFixture.NODE + "/t").getBytes(StandardCharsets.UTF_8);
          key = Arrays.copyOf(prefix, prefix.length + 2);
          key[prefix.length] = (byte) 0xff;
          key[prefix.length + 1] = (byte) 0xc3;
        } else {
          task = tasks[random.nextInt(tasks.length)];
          key = (EnforcerFixture.NODE + "/" + task).getBytes(StandardCharsets.UTF_8);
        }
        yield freeze ? new ProducerRecord<>(kafka.topics.freezeDecisions().name(), partition, key, freezeValue(kafka, task))
            : new ProducerRecord<>(cpuTopic, partition, key, cpuValue(kafka, task));
      }
      case UNDECODABLE_GATE -> new ProducerRecord<>(kafka.topics.gateTables().name(), partition,
          EnforcerFixture.NODE.getBytes(StandardCharsets.UTF_8), undecodable(random, validCpu));
      case HOSTILE_GATE -> new ProducerRecord<>(kafka.topics.gateTables().name(), partition,
          EnforcerFixture.NODE.getBytes(StandardCharsets.UTF_8), hostileTable(kafka, random));
      case MISMATCH -> new ProducerRecord<>(cpuTopic, partition, (EnforcerFixture.NODE + "/good-0").getBytes(StandardCharsets.UTF_8),
          cpuValue(kafka, "victim"));
      case SYMLINK -> random.nextBoolean()
          ? new ProducerRecord<>(cpuTopic, partition, (EnforcerFixture.NODE + "/evil").getBytes(StandardCharsets.UTF_8), cpuValue(kafka, "evil"))
          : new ProducerRecord<>(kafka.topics.freezeDecisions().name(), partition,
              (EnforcerFixture.NODE + "/evil").getBytes(StandardCharsets.UTF_8), freezeValue(kafka, "evil"));
    };
  }

  /** Bytes no decision decodes from: random (no magic byte), truncated, with bytes appended, or an unknown schema id. */
  private static byte[] undecodable(Random random, byte[] valid) {
    switch (random.nextInt(4)) {
      case 0 -> {
        byte[] bytes = new byte[random.nextInt(40) + 1];
        random.nextBytes(bytes);
        bytes[0] = (byte) (1 + random.nextInt(255));
        return bytes;
      }
      case 1 -> {
        return Arrays.copyOf(valid, random.nextInt(valid.length - 1) + 1);
      }
      case 2 -> {
        byte[] bytes = Arrays.copyOf(valid, valid.length + 1 + random.nextInt(4));
        bytes[valid.length] = 1;
        return bytes;
      }
      default -> {
        byte[] bytes = valid.clone();
        ByteBuffer.wrap(bytes, 1, 4).putInt(0x7f000000 + random.nextInt(1 << 20));
        return bytes;
      }
    }
  }

  /** A valid table whose rows would have the reflex watch and freeze, at any reading, ids it must not touch. */
  private static byte[] hostileTable(EnforcerFixture kafka, Random random) {
    List<GateTableTask> rows = new ArrayList<>();
    for (String task : HOSTILE_ROWS) {
      if (random.nextBoolean()) {
        rows.add(GateTableTask.newBuilder().setTask(task).setRole(GateTaskRole.RUNNING).setInteractive(false)
            .setThresholdBytes(0).setPeakBytes(1L << 30).setAdmitted(false).build());
      }
    }
    GateTable table = GateTable.newBuilder().setNode(EnforcerFixture.NODE).setTsMs(System.currentTimeMillis())
        .setMode(GateMode.COUNT).setHolders(List.of("holder")).setQueue(List.of()).setAdmitsNewPeak(false)
        .setFreeSlots(0).setTasks(rows).build();
    return kafka.topics.gateTables().valueSerde().serializer().serialize(kafka.topics.gateTables().name(), table);
  }

  private static byte[] cpuValue(EnforcerFixture kafka, String task) {
    CpuDecision decision = EnforcerFixture.cpuDecision(EnforcerFixture.NODE, task, true, 3000, 70_000);
    return kafka.topics.cpuDecisions().valueSerde().serializer().serialize(kafka.topics.cpuDecisions().name(), decision);
  }

  private static byte[] freezeValue(EnforcerFixture kafka, String task) {
    FreezeDecision decision = FreezeDecision.newBuilder().setNode(EnforcerFixture.NODE).setTask(task)
        .setTsMs(System.currentTimeMillis()).setAction(FreezeAction.FREEZE).setReason("PEAK_SLOT_BUSY").setLeaseMs(60_000L).build();
    return kafka.topics.freezeDecisions().valueSerde().serializer().serialize(kafka.topics.freezeDecisions().name(), decision);
  }

  private static int counter(PrometheusMeterRegistry meters, String name, String tag, String value) {
    return (int) meters.get(name).tag(tag, value).counter().count();
  }

  /** A counter made on first use: none yet is zero. */
  private static int counterOrZero(PrometheusMeterRegistry meters, String name, String tag, String value) {
    var counter = meters.find(name).tag(tag, value).counter();
    return counter == null ? 0 : (int) counter.count();
  }

  private static KafkaProducer<byte[], byte[]> rawProducer(KafkaEnv env) {
    Map<String, Object> config = new HashMap<>(env.clientConfig());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
  }

  /** Every regular file under the root (symlinks not followed), with its content. */
  private Map<Path, String> snapshot() throws IOException {
    Map<Path, String> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path path : (Iterable<Path>) walk::iterator) {
        if (Files.isRegularFile(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          files.put(path, Files.readString(path));
        }
      }
    }
    return files;
  }

}
