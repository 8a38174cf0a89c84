package io.quotaflow.streams.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotaflow.process.ops.Health;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.GuaranteeType;
import io.quotaflow.schemas.avro.JobCpuMonitorConfig;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.PoolState;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.json.JsonRecords;
import io.quotaflow.streams.api.LiveStateApi;
import io.quotaflow.streams.topology.StreamsRunner;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.WithKafka;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.Schema;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.StreamsMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN "Live state" on a real broker: two instances of one app split the partitions, and each
 * answers {@code /pools}, {@code /nodes/{node}} and {@code /tasks/{node}/{task}} for every key —
 * from its own stores or by forwarding to the owner — with the same body; unknown keys and invalid
 * ids are 404 with a reason; when one instance leaves, the other answers everything itself.
 */
@WithKafka
class LiveStateIntegrationTest {

  private static final int PARTITIONS = 4;
  private static final int NODES = 8;
  private static final int SECONDS = 40;
  private static final long MB = 1L << 20;
  private static final long NODE_MEMORY_BYTES = 16L << 30;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /** One instance: its ops server, whose port is its application.server, and its Kafka Streams. */
  private record Instance(OpsServer ops, StreamsRunner runner) implements AutoCloseable {
    String address() {
      return "127.0.0.1:" + ops.port();
    }

    @Override
    public void close() {
      runner.close(Duration.ofSeconds(30));
      ops.close();
    }
  }

  private record Reply(int status, JsonNode body, String servedBy, String raw) {}

  private static Instance start(StreamsAppFixture app, Path stateDir) throws InterruptedException {
    OpsServer ops = OpsServer.start("127.0.0.1", 0, OpsServer.newRegistry("streams"), () -> new Health(true, true, -1, "TEST"));
    StreamsRunner runner = app.start(stateDir, Map.of(StreamsConfig.APPLICATION_SERVER_CONFIG, "127.0.0.1:" + ops.port()));
    LiveStateApi.serve(ops, runner);
    return new Instance(ops, runner);
  }

  private static Reply get(Instance instance, String path) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://" + instance.address() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
    return new Reply(response.statusCode(), JSON.readTree(response.body()),
        response.headers().firstValue("X-Quotaflow-Served-By").orElse(null), response.body());
  }

  /**
   * The instance's answer once it is not 503: Kafka Streams may follow the rebalance that split the
   * partitions with another (its warm-up tasks moving to their owner), and while it runs a store
   * answers 503 (retry), as a client is told to.
   */
  private static Reply answer(Instance instance, String path) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    Reply reply = get(instance, path);
    while (reply.status() == 503 && System.nanoTime() < deadline) {
      Thread.sleep(200);
      reply = get(instance, path);
    }
    return reply;
  }

  /**
   * Every node runs three tasks of 1 CPU: task-0 in the burst pool, tasks 1 and 2 in the batch pool.
   * Tasks 1 and 2 declare a normal of 256 MB and both reach 320 MB from 10 s on, so with one peak
   * slot per node one holds it and the other waits frozen until the end.
   */
  private static void produceInput(StreamsAppFixture app, long startMs) {
    long configMs = startMs - 1000;
    app.produceAt(app.topics.clusterConfig(), List.of(new ProducerRecord<>(app.topics.clusterConfig().name(), null,
        configMs, "main", ClusterConfig.newBuilder().setCluster("main").setTotalCpu(8.0).build())));
    app.produceAt(app.topics.poolConfigs(), List.of(
        new ProducerRecord<>(app.topics.poolConfigs().name(), null, configMs, "burst", PoolConfig.newBuilder().setPool("burst")
            .setGuaranteeType(GuaranteeType.BURST).setResourceFlowCpu(2).setBurstGuaranteeCpu(6).build()),
        new ProducerRecord<>(app.topics.poolConfigs().name(), null, configMs, "batch",
            PoolConfig.newBuilder().setPool("batch").build())));
    List<ProducerRecord<String, NodeStatus>> nodes = new ArrayList<>();
    List<ProducerRecord<String, TaskSpec>> specs = new ArrayList<>();
    for (int n = 0; n < NODES; n++) {
      String node = "node-" + n;
      nodes.add(new ProducerRecord<>(app.topics.nodes().name(), null, configMs, node, NodeStatus.newBuilder().setNode(node)
          .setTsMs(configMs).setMemoryTotalBytes(NODE_MEMORY_BYTES).setCpus(4).setCgroupVersion(2).build()));
      for (int t = 0; t < 3; t++) {
        specs.add(new ProducerRecord<>(app.topics.taskSpecs().name(), null, configMs, node + "/task-" + t,
            TaskSpec.newBuilder().setNode(node).setTask("task-" + t).setNcpus(1).setPool(t == 0 ? "burst" : "batch")
                .setOperation("op-" + t).setMemoryNormalBytes(t == 0 ? null : 256 * MB)
                .setJobCpuMonitor(JobCpuMonitorConfig.newBuilder().setEnableCpuReclaim(true).build()).build()));
      }
    }
    app.produceAt(app.topics.nodes(), nodes);
    app.produceAt(app.topics.taskSpecs(), specs);
    List<ProducerRecord<String, CgroupSample>> samples = new ArrayList<>();
    long[][] usage = new long[NODES][3];
    for (int s = 0; s < SECONDS; s++) {
      for (int n = 0; n < NODES; n++) {
        for (int t = 0; t < 3; t++) {
          usage[n][t] += t == 0 ? 50_000 : 900_000;
          long anon = t == 0 ? 100 * MB : s < 10 ? 200 * MB : 320 * MB;
          long tsMs = startMs + s * 1000L;
          samples.add(new ProducerRecord<>(app.topics.samples().name(), null, tsMs, "node-" + n + "/task-" + t,
              CgroupSample.newBuilder().setNode("node-" + n).setTask("task-" + t).setTsMs(tsMs).setCpuUsageUsec(usage[n][t])
                  .setMemoryBytes(anon + 16 * MB).setMemoryAnonBytes(anon).setState(SampleState.RUNNING).setSeq(s).build()));
        }
      }
    }
    app.produceAt(app.topics.samples(), samples);
  }

  /** Samples partitions hosted by each instance, by its application.server. */
  private static Map<String, Set<Integer>> samplesPartitionsByHost(KafkaStreams streams, String samplesTopic) {
    Map<String, Set<Integer>> byHost = new TreeMap<>();
    for (StreamsMetadata m : streams.metadataForAllStreamsClients()) {
      Set<Integer> partitions = new TreeSet<>();
      m.topicPartitions().stream().filter(tp -> tp.topic().equals(samplesTopic)).forEach(tp -> partitions.add(tp.partition()));
      byHost.put(m.hostInfo().host() + ":" + m.hostInfo().port(), partitions);
    }
    return byHost;
  }

  private static Set<String> fieldNames(JsonNode object) {
    Set<String> names = new TreeSet<>();
    for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    return names;
  }

  @Test
  void eitherInstanceAnswersForEveryKeyAndTheOtherTakesOverWhenOneLeaves(KafkaEnv kafka, @TempDir Path dirs) throws Exception {
    long startMs = (System.currentTimeMillis() - 3 * 60_000) / 1000 * 1000;
    StreamsAppFixture app = new StreamsAppFixture(kafka, "live", kafka.registryClient(), PARTITIONS, true);
    produceInput(app, startMs);

    try (Instance a = start(app, Files.createDirectory(dirs.resolve("a")))) {
      Instance b = start(app, Files.createDirectory(dirs.resolve("b")));
      try {
        KafkaWait.until(Duration.ofSeconds(90), "both instances RUNNING with the samples partitions split between them", () -> {
          Map<String, Set<Integer>> split = samplesPartitionsByHost(a.runner().kafkaStreams(), app.topics.samples().name());
          return a.runner().state() == KafkaStreams.State.RUNNING && b.runner().state() == KafkaStreams.State.RUNNING
              && split.size() == 2 && split.values().stream().noneMatch(Set::isEmpty);
        });
        KafkaWait.consumerGroupCaughtUp(kafka, app.applicationId,
            List.of(app.topics.samples().name(), app.topics.poolPartials().name()), Duration.ofSeconds(120));

        Set<String> servers = new HashSet<>();
        for (int n = 0; n < NODES; n++) {
          String node = "node-" + n;
          for (int t = 0; t < 3; t++) {
            String path = "/tasks/" + node + "/task-" + t;
            Reply fromA = answer(a, path);
            Reply fromB = answer(b, path);
            assertThat(fromA.status()).as("%s from A: %s", path, fromA.raw()).isEqualTo(200);
            assertThat(fromB.status()).as("%s from B: %s", path, fromB.raw()).isEqualTo(200);
            assertThat(fromA.raw()).as(path + ": the same state whichever instance is asked").isEqualTo(fromB.raw());
            assertThat(fromA.servedBy()).as(path + ": read by its owner").isEqualTo(fromB.servedBy());
            servers.add(fromA.servedBy());
            JsonNode task = fromA.body();
            assertThat(task.get("pool").asText()).isEqualTo(t == 0 ? "burst" : "batch");
            assertThat(task.get("hard_limit_cpu").asDouble()).isEqualTo(1.0);
            assertThat(task.get("smoothed_usage_cpu").isNumber()).as(path + " smoothed usage").isTrue();
            assertThat(task.get("votes").isArray()).isTrue();
            assertThat(task.get("cgroup").get("shares").asLong()).isBetween(2L, 1000L);
            assertThat(task.get("effective_limit_cpu").asDouble()).isPositive();
            assertThat(task.get("freeze").get("role").asText()).isIn("RUNNING", "HOLDING", "WAITING");
          }

          Reply fromA = answer(a, "/nodes/" + node);
          Reply fromB = answer(b, "/nodes/" + node);
          assertThat(fromA.status()).as("node %s: %s", node, fromA.raw()).isEqualTo(200);
          assertThat(fromA.raw()).isEqualTo(fromB.raw());
          JsonNode view = fromA.body();
          assertThat(view.get("memory_total_bytes").asLong()).isEqualTo(NODE_MEMORY_BYTES);
          assertThat(view.get("holders")).as(node + " holders").hasSize(1);
          assertThat(view.get("wait_queue")).as(node + " wait queue").hasSize(1);
          JsonNode head = view.get("wait_queue").get(0);
          assertThat(head.get("position").asInt()).isZero();
          Set<String> gated = Set.of(view.get("holders").get(0).get("task").asText(), head.get("task").asText());
          assertThat(gated).containsExactlyInAnyOrder("task-1", "task-2");
          JsonNode waiting = answer(a, "/tasks/" + node + "/" + head.get("task").asText()).body().get("freeze");
          assertThat(waiting.get("frozen").asBoolean()).isTrue();
          assertThat(waiting.get("queue_position").asInt()).isZero();
        }
        assertThat(servers).as("tasks are read on both instances").containsExactlyInAnyOrder(a.address(), b.address());

        Reply poolsA = answer(a, "/pools");
        Reply poolsB = answer(b, "/pools");
        assertThat(poolsA.status()).as(poolsA.raw()).isEqualTo(200);
        assertThat(poolsA.raw()).isEqualTo(poolsB.raw());
        assertThat(poolsA.body().get("pools")).extracting(p -> p.get("pool").asText()).containsExactly("batch", "burst");
        Reply burst = answer(b, "/pools/burst");
        assertThat(burst.status()).isEqualTo(200);
        long tsMs = burst.body().get("ts_ms").asLong();
        List<ConsumerRecord<String, PoolState>> published = KafkaWait.recordsUntil(kafka, app.topics.poolState().name(),
            app.topics.poolState().keySerde().deserializer(), app.topics.poolState().valueSerde().deserializer(),
            seen -> seen.stream().anyMatch(r -> r.key().equals("burst") && r.value().getTsMs() == tsMs),
            "the burst pool's state of " + tsMs, Duration.ofSeconds(60));
        PoolState same = published.stream().filter(r -> r.key().equals("burst") && r.value().getTsMs() == tsMs)
            .findFirst().orElseThrow().value();
        assertThat(tsMs).as("the state of the last period computed").isGreaterThanOrEqualTo(startMs + (SECONDS - 5) * 1000L);
        assertThat(burst.body()).as("the pool-state record of that period").isEqualTo(JSON.readTree(JsonRecords.toJson(same).toString()));
        assertThat(fieldNames(burst.body())).as("every PoolState attribute")
            .isEqualTo(new TreeSet<>(PoolState.getClassSchema().getFields().stream().map(Schema.Field::name).toList()));

        for (Instance asked : List.of(a, b)) {
          for (String unknown : List.of("/pools/ghost", "/nodes/ghost-node", "/tasks/node-0/ghost", "/tasks/ghost-node/task-0")) {
            Reply reply = answer(asked, unknown);
            assertThat(reply.status()).as(unknown).isEqualTo(404);
            assertThat(reply.body().get("reason").asText()).as(unknown).contains("ghost");
          }
          Reply dotted = answer(asked, "/tasks/node-0/.hidden");
          assertThat(dotted.status()).isEqualTo(404);
          assertThat(dotted.body().get("reason").asText()).contains("invalid task id '.hidden'").contains("starts with a dot");
          Reply spaced = answer(asked, "/nodes/a%20b");
          assertThat(spaced.status()).isEqualTo(404);
          assertThat(spaced.body().get("reason").asText()).contains("invalid node id 'a b'");
          Reply nowhere = answer(asked, "/tasks/node-0");
          assertThat(nowhere.status()).isEqualTo(404);
          assertThat(nowhere.body().get("reason").asText()).contains("/tasks/{node}/{task}");
        }
      } finally {
        b.close();
      }

      // B left: until A has taken its partitions over, an answer is 503 (retry), never a wrong 404.
      KafkaWait.until(Duration.ofSeconds(90), "A to answer every task itself", () -> {
        for (int n = 0; n < NODES; n++) {
          for (int t = 0; t < 3; t++) {
            Reply reply;
            try {
              reply = get(a, "/tasks/node-" + n + "/task-" + t);
            } catch (Exception e) {
              throw new AssertionError(e);
            }
            assertThat(reply.status()).as(reply.raw()).isIn(200, 503);
            if (reply.status() != 200 || !a.address().equals(reply.servedBy())) {
              return false;
            }
          }
        }
        return true;
      });
    }
  }
}
