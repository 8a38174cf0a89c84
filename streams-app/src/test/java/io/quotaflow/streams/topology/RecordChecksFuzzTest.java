package io.quotaflow.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.quotaflow.schemas.Ids;
import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.Enforcement;
import io.quotaflow.schemas.avro.GuaranteeType;
import io.quotaflow.schemas.avro.JobCpuMonitorConfig;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.registry.InMemorySchemaRegistryClient;
import io.quotaflow.schemas.serde.WireFormatException;
import io.quotaflow.testharness.FuzzBudget;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The volume part of the input fuzzing, without a broker: a valid record of each topic the app reads
 * from outside, with bytes overwritten, cut or appended, through the topic's own deserializer and,
 * when it still decodes, the checks every record passes before a processor sees it (InputCheck),
 * under a valid or a hostile key. Whatever comes in, the answer is a value that passes or an
 * exception whose message says what is wrong ({@link WireFormatException}, {@link RejectedRecordException},
 * an invalid id) — never a NullPointerException or another surprise that would reach the DLQ as a
 * reason nobody can act on (InputTopicsFuzzTest checks the DLQ itself on a broker).
 */
@AddLifecycleHook(FuzzBudget.class)
class RecordChecksFuzzTest {

  private static final Topics TOPICS = Topics.create(new Topics.Settings("fuzz.", 3, true), new InMemorySchemaRegistryClient());
  private static final long NOW = 1_700_000_000_000L;
  private static final int PARTITIONS = 3;

  private record Input(Topic<String, ?> topic, String key, SpecificRecord value) {}

  private static final List<Input> VALID = List.of(
      new Input(TOPICS.samples(), "n1/t1", CgroupSample.newBuilder().setNode("n1").setTask("t1").setTsMs(NOW)
          .setCpuUsageUsec(123_456).setMemoryBytes(1L << 30).setMemoryAnonBytes(1L << 29).setMemoryPeakBytes(1L << 31)
          .setNrThrottled(3L).setThrottledUsec(400L).setCpuQuotaCores(1.5).setState(SampleState.RUNNING).setSeq(7).build()),
      new Input(TOPICS.taskSpecs(), "n1/t1", TaskSpec.newBuilder().setNode("n1").setTask("t1").setOperation("sort")
          .setPool("prod").setNcpus(2).setCpuLimit(3.0).setMemoryNormalBytes(1L << 30).setMemoryPeakBytes(2L << 30)
          .setJobCpuMonitor(JobCpuMonitorConfig.newBuilder().setEnableCpuReclaim(true).build()).build()),
      new Input(TOPICS.nodes(), "n1", NodeStatus.newBuilder().setNode("n1").setTsMs(NOW).setMemoryTotalBytes(8L << 30)
          .setCpus(4).setThreadsPerCore(2).setCgroupVersion(1).build()),
      new Input(TOPICS.poolConfigs(), "prod", PoolConfig.newBuilder().setPool("prod").setWeight(2)
          .setGuaranteeType(GuaranteeType.BURST).setResourceFlowCpu(1).setBurstGuaranteeCpu(2).build()),
      new Input(TOPICS.clusterConfig(), "main", ClusterConfig.newBuilder().setCluster("main")
          .setEnforcement(Enforcement.DRY_RUN).build()));

  @Provide
  Arbitrary<String> keys() {
    return Arbitraries.of("n1/t1", "n1", "prod", "main", "n1/..", "../t1", "n1/", "/t1", "n1/t1/x", "", ".",
        "n1/" + "t".repeat(129), "n1/t\uFFFD", "n2/t1", "n1/t2").injectNull(0.1);
  }

  @Property(tries = 1_000)
  void aDamagedRecordIsRefusedWithAReasonOrPassesTheChecks(@ForAll @IntRange(min = 0, max = 4) int which,
      @ForAll @Size(max = 4) List<@IntRange(min = 0, max = 400) Integer> positions, @ForAll @Size(max = 4) List<Byte> values,
      @ForAll @IntRange(min = 0, max = 3) int cut, @ForAll @Size(max = 3) byte[] appended, @ForAll("keys") String key,
      @ForAll @IntRange(min = 0, max = 2) int partition, @ForAll boolean useOwnKey) {
    Input input = VALID.get(which);
    @SuppressWarnings("unchecked")
    Serializer<SpecificRecord> serializer = (Serializer<SpecificRecord>) input.topic().valueSerde().serializer();
    byte[] bytes = serializer.serialize(input.topic().name(), input.value());
    for (int i = 0; i < Math.min(positions.size(), values.size()); i++) {
      // After the 5-byte header, mostly: a corrupted header is the wire-format tests' job.
      bytes[5 + positions.get(i) % (bytes.length - 5)] = values.get(i);
    }
    byte[] damaged = java.util.Arrays.copyOf(bytes, bytes.length - Math.min(cut, bytes.length - 5) + appended.length);
    System.arraycopy(appended, 0, damaged, damaged.length - appended.length, appended.length);
    String recordKey = useOwnKey ? input.key() : key;

    Throwable thrown = catchThrowable(() -> {
      Object value = input.topic().valueSerde().deserializer().deserialize(input.topic().name(), damaged);
      check(input.topic(), recordKey, value, partition);
    });
    assertThat(thrown).as("%s under key %s", input.topic().name(), recordKey).satisfiesAnyOf(
        t -> assertThat(t).isNull(),
        t -> assertThat(t).isInstanceOfAny(WireFormatException.class, RejectedRecordException.class, Ids.InvalidIdException.class)
            .satisfies(e -> assertThat(e.getMessage()).isNotBlank()));
  }

  /** The checks the topology runs before any processor: InputCheck's, and the config broadcaster's. */
  private static void check(Topic<String, ?> topic, String key, Object value, int partition) {
    if (topic == TOPICS.samples()) {
      RecordChecks.requireValidSample(key, (CgroupSample) value, NOW, partition, PARTITIONS);
    } else if (topic == TOPICS.taskSpecs()) {
      RecordChecks.requireValidSpec(key, (TaskSpec) value, NOW, partition, PARTITIONS);
    } else if (topic == TOPICS.nodes()) {
      RecordChecks.requireValidNodeStatus(key, (NodeStatus) value, NOW, partition, PARTITIONS);
    } else if (topic == TOPICS.poolConfigs()) {
      if (value != null && key != null) {
        RecordChecks.requireNoProblems("pool config", RecordChecks.poolProblems(key, (PoolConfig) value));
      }
    } else if (value != null) {
      RecordChecks.requireNoProblems("cluster config", ClusterConfigValidator.problems((ClusterConfig) value));
    }
  }
}
