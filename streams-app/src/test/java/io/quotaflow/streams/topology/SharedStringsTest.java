package io.quotaflow.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SharedStringsTest {

  @Test
  void equalStringsComeBackAsTheFirstInstanceShown() {
    SharedStrings strings = new SharedStrings();
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
    SharedStrings strings = new SharedStrings();
    String kept = new String("node-0");
    strings.of(kept);
    for (int i = 1; i < SharedStrings.MAX_STRINGS; i++) {
      strings.of("node-" + i);
    }
    assertThat(strings.size()).isEqualTo(SharedStrings.MAX_STRINGS);

    String again = new String("node-0");
    assertThat(strings.of(again)).isSameAs(kept); // still held at the bound
    String past = new String("op-new");
    assertThat(strings.of(past)).isSameAs(past); // one more: the table starts over with it
    assertThat(strings.size()).isEqualTo(1);
    assertThat(strings.of(again)).isSameAs(again).isEqualTo(kept);
  }
}
