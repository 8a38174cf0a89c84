package io.quotaflow.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.avro.JobCpuMonitorConfig;
import org.junit.jupiter.api.Test;

class SharedValuesTest {

  @Test
  void equalStringsComeBackAsTheFirstInstanceShown() {
    SharedValues<String> strings = new SharedValues<>();
    String first = new String("op-etl");
    String second = new String("op-etl");

    assertThat(strings.of(first)).isSameAs(first);
    assertThat(strings.of(second)).isSameAs(first);
    assertThat(strings.of("pool-a")).isEqualTo("pool-a");
    assertThat(strings.of(null)).isNull();
    assertThat(strings.size()).isEqualTo(2);
  }

  @Test
  void pastItsBoundItStartsOverAndStillAnswersEachStringWithAnEqualOne() {
    SharedValues<String> strings = new SharedValues<>();
    String kept = new String("node-0");
    strings.of(kept);
    for (int i = 1; i < SharedValues.MAX_VALUES; i++) {
      strings.of("node-" + i);
    }
    assertThat(strings.size()).isEqualTo(SharedValues.MAX_VALUES);

    String again = new String("node-0");
    assertThat(strings.of(again)).isSameAs(kept); // still held at the bound
    String past = new String("op-new");
    assertThat(strings.of(past)).isSameAs(past); // one more: the table starts over with it
    assertThat(strings.size()).isEqualTo(1);
    assertThat(strings.of(again)).isSameAs(again).isEqualTo(kept);
  }

  @Test
  void equalRecordsComeBackAsTheFirstInstanceShown() {
    SharedValues<JobCpuMonitorConfig> configs = new SharedValues<>();
    JobCpuMonitorConfig first = JobCpuMonitorConfig.newBuilder().setEnableCpuReclaim(true).build();
    JobCpuMonitorConfig equal = JobCpuMonitorConfig.newBuilder().setEnableCpuReclaim(true).build();
    JobCpuMonitorConfig other = JobCpuMonitorConfig.newBuilder().setEnableCpuReclaim(false).build();

    assertThat(configs.of(first)).isSameAs(first);
    assertThat(configs.of(equal)).isSameAs(first);
    assertThat(configs.of(other)).isSameAs(other);
    assertThat(configs.size()).isEqualTo(2);
  }
}
