package io.quotaflow.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.Ids;
import org.junit.jupiter.api.Test;

class NodeNameTest {

  @Test
  void takesTheShortNameAndReplacesWhatAnIdCannotHold() {
    assertThat(NodeName.sanitise("worker-17.dc1.example.com")).isEqualTo("worker-17");
    assertThat(NodeName.sanitise("my host#2")).isEqualTo("my-host-2");
    assertThat(NodeName.sanitise(" ci_runner:7 ")).isEqualTo("ci_runner:7");
  }

  @Test
  void anUnusableNameBecomesNode() {
    assertThat(NodeName.sanitise("")).isEqualTo("node");
    assertThat(NodeName.sanitise(".hidden")).isEqualTo("node");
    assertThat(NodeName.sanitise(null)).isEqualTo("node");
  }

  @Test
  void aLongNameIsCutToAValidId() {
    String id = NodeName.sanitise("x".repeat(300));
    assertThat(id).hasSize(128);
    assertThat(Ids.isValid(id)).isTrue();
    assertThat(Ids.isValid(NodeName.ofThisHost())).isTrue();
  }
}
