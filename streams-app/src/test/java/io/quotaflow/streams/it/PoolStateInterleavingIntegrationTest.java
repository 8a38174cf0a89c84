package io.quotaflow.streams.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.NodePartitioning;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.GuaranteeType;
import io.quotaflow.schemas.avro.JobCpuMonitorConfig;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.PoolState;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.streams.topology.StreamsRunner;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.KafkaWait;
import io.quotaflow.testharness.WithKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN §3's barrier on a real broker: the same records, on 1 partition and on 4, produced in time
 * order or partition by partition, give the same pool-state records, however the stream tasks'
 * period reports interleave on the single-partition pool-partials topic (as long as no partition
 * falls more than 10 periods behind the others, which live input keeps them from).
 */
@WithKafka
class PoolStateInterleavingIntegrationTest {

  private static final int NODES = 8;
  private static final int SECONDS = 60;
  private static final int CHUNK_S = 5;

  /** Samples of every node's two tasks (one per pool), in time order, ending a few minutes ago. */
  private static List<CgroupSample> samples(long startMs) {
    Random random = new Random(3);
    List<CgroupSample> samples = new ArrayList<>();
    long[][] usage = new long[NODES][2];
    for (int s = 0; s < SECONDS; s++) {
      for (int n = 0; n < NODES; n++) {
        for (int t = 0; t < 2; t++) {
          // burst tasks idle for 20 s, then all want their core; the other pool's tasks are busy throughout
          double cores = t == 0 ? (s < 20 ? 0.05 : 1.0) : 0.9;
          usage[n][t] += Math.round(cores * 1_000_000 * (0.95 + 0.1 * random.nextDouble()));
          samples.add(CgroupSample.newBuilder().setNode("node-" + n).setTask("task-" + t)
              .setTsMs(startMs + s * 1000L + random.nextInt(200)).setCpuUsageUsec(usage[n][t]).setMemoryBytes(1L << 26)
              .setState(SampleState.RUNNING).setSeq(s).build());
        }
      }
    }
    return samples;
  }

  private static Map<String, PoolState> run(KafkaEnv kafka, Path dirs, String name, int partitions, boolean byPartition,
      long startMs) throws Exception {
    StreamsAppFixture app = new StreamsAppFixture(kafka, name, kafka.registryClient(), partitions, true);
    long configMs = startMs - 2000; // before the specs, so configs come first in every run
    app.produceAt(app.topics.clusterConfig(), List.of(new ProducerRecord<>(app.topics.clusterConfig().name(), null,
        configMs, "main", ClusterConfig.newBuilder().setCluster("main").setTotalCpu(8.0).build())));
    app.produceAt(app.topics.poolConfigs(), List.of(
        new ProducerRecord<>(app.topics.poolConfigs().name(), null, configMs, "burst", PoolConfig.newBuilder().setPool("burst")
            .setGuaranteeType(GuaranteeType.BURST).setResourceFlowCpu(2).setBurstGuaranteeCpu(6).build()),
        new ProducerRecord<>(app.topics.poolConfigs().name(), null, configMs, "batch",
            PoolConfig.newBuilder().setPool("batch").build())));
    List<ProducerRecord<String, TaskSpec>> specs = new ArrayList<>();
    for (int n = 0; n < NODES; n++) {
      for (int t = 0; t < 2; t++) {
        specs.add(new ProducerRecord<>(app.topics.taskSpecs().name(), null, startMs - 1000, "node-" + n + "/task-" + t,
            TaskSpec.newBuilder().setNode("node-" + n).setTask("task-" + t).setNcpus(1).setPool(t == 0 ? "burst" : "batch")
                .setJobCpuMonitor(JobCpuMonitorConfig.newBuilder().setEnableCpuReclaim(true).build()).build()));
      }
    }
    app.produceAt(app.topics.taskSpecs(), specs);
    List<CgroupSample> input = samples(startMs);
    try (StreamsRunner runner = app.start(Files.createDirectory(dirs.resolve(name)))) {
      // A few seconds at a time, as live collectors send them: the barrier leaves behind a partition that
      // falls more than 10 periods behind the others, which a backlog processed task by task could do.
      for (int s = 0; s < SECONDS; s += CHUNK_S) {
        long fromMs = startMs + s * 1000L;
        List<CgroupSample> chunk = new ArrayList<>(input.stream()
            .filter(x -> x.getTsMs() >= fromMs && x.getTsMs() < fromMs + CHUNK_S * 1000L).toList());
        if (byPartition) {
          // Partition by partition: each partition's records stay in time order, the partitions do not interleave.
          chunk.sort(Comparator.comparingInt((CgroupSample x) -> NodePartitioning.partitionOfNode(x.getNode(), partitions))
              .thenComparingLong(CgroupSample::getTsMs));
        }
        app.produceAt(app.topics.samples(), chunk.stream().map(x -> new ProducerRecord<>(app.topics.samples().name(), null,
            x.getTsMs(), x.getNode() + "/" + x.getTask(), x)).toList());
        KafkaWait.consumerGroupCaughtUp(kafka, app.applicationId,
            List.of(app.topics.samples().name(), app.topics.poolPartials().name()), Duration.ofSeconds(60));
      }
      Map<String, PoolState> byPoolAndTime = new TreeMap<>();
      for (ConsumerRecord<String, PoolState> r : KafkaWait.records(kafka, app.topics.poolState(), 1, Duration.ofSeconds(60))) {
        byPoolAndTime.put(r.key() + "@" + r.value().getTsMs(), r.value());
      }
      return byPoolAndTime;
    }
  }

  @Test
  void poolStateDoesNotDependOnPartitionsOrProducerOrder(KafkaEnv kafka, @TempDir Path dirs) throws Exception {
    long startMs = (System.currentTimeMillis() - 3 * 60_000) / 1000 * 1000;
    Map<String, PoolState> one = run(kafka, dirs, "pools-1", 1, false, startMs);
    Map<String, PoolState> four = run(kafka, dirs, "pools-4", 4, true, startMs);

    // The last periods are computed when every partition has moved past them, so one run may stop a period earlier.
    List<String> common = one.keySet().stream().filter(four::containsKey).toList();
    assertThat(common).hasSizeGreaterThan(2 * (SECONDS - 5));
    List<String> differing = common.stream().filter(key -> !four.get(key).equals(one.get(key)))
        .map(key -> key + " (" + (one.get(key).getTsMs() - startMs) / 1000 + " s: demand " + four.get(key).getDemandCpu()
            + " vs " + one.get(key).getDemandCpu() + ", fair share " + four.get(key).getFairShareCpu() + " vs "
            + one.get(key).getFairShareCpu() + ")").toList();
    assertThat(differing).isEmpty();
    PoolState burst = one.get(common.stream().filter(k -> k.startsWith("burst@")).reduce((a, b) -> b).orElseThrow());
    assertThat(burst.getIntegralCpu()).as("the burst pool spends its volume once its tasks want CPU").isGreaterThan(0);
    assertThat(burst.getDemandCpu()).isEqualTo(8.0);
  }
}
