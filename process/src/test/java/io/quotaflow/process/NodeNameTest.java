package io.quotaflow.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.Ids;
import org.junit.jupiter.api.Test;

class NodeNameTest {

  @Test
  void takesTheShortNameAndReplacesWhatAnIdCannotHold() {
    assertThat(NodeName.fromHostName("worker-17.dc1.example.com")).contains("worker-17");
    assertThat(NodeName.fromHostName("my host#2")).contains("my-host-2");
    assertThat(NodeName.fromHostName(" ci_runner:7 ")).contains("ci_runner:7");
  }

  @Test
  void anUnusableNameIsNone() {
    assertThat(NodeName.fromHostName("")).isEmpty();
    assertThat(NodeName.fromHostName(".hidden")).isEmpty();
    assertThat(NodeName.fromHostName(null)).isEmpty();
  }

  @Test
  void aLongNameIsCutToAValidId() {
    String id = NodeName.fromHostName("x".repeat(300)).orElseThrow();
    assertThat(id).hasSize(128);
    assertThat(Ids.isValid(id)).isTrue();
  }

  @Test
  void thisHostsNameIsAValidId() {
    assertThat(NodeName.ofThisHost()).hasValueSatisfying(id -> assertThat(Ids.isValid(id)).isTrue());
  }
}
