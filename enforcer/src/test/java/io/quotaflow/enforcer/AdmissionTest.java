package io.quotaflow.enforcer;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cgroups.TaskId;
import org.junit.jupiter.api.Test;

class AdmissionTest {

  @Test
  void theNodesOwnDecisionNamesItsTask() {
    assertThat(Admission.of("node-1", "node-1/job-7", "node-1", "job-7"))
        .isEqualTo(new Admission.Mine(TaskId.of("job-7")));
    assertThat(Admission.of("node-1", "node-1/job-7", null, null)).as("tombstone")
        .isEqualTo(new Admission.Mine(TaskId.of("job-7")));
  }

  @Test
  void anotherNodesRecordIsNotOursEvenWhenItsNameStartsLikeOurs() {
    assertThat(Admission.of("node-1", "node-10/job-7", "node-10", "job-7")).isEqualTo(new Admission.OtherNode("node-10"));
    assertThat(Admission.of("node-1", "node/job-7", "node", "job-7")).isEqualTo(new Admission.OtherNode("node"));
  }

  @Test
  void pathTraversalAndDotNamesAreRefusedNotResolved() {
    for (String task : new String[] {"..", "../x", ".", ".hidden", "a/b", "", "x".repeat(129), "tab\there"}) {
      assertThat(Admission.of("node-1", "node-1/" + task, "node-1", task)).as(task)
          .isInstanceOfSatisfying(Admission.Refused.class, refused -> {
            assertThat(refused.rawTask()).isEqualTo(task);
            assertThat(refused.detail()).contains("not a single safe path component");
          });
    }
  }

  @Test
  void aValueNamingAnotherTaskOrNodeIsRefused() {
    assertThat(Admission.of("node-1", "node-1/job-7", "node-1", "job-8"))
        .isInstanceOfSatisfying(Admission.Refused.class, r -> assertThat(r.detail()).contains("\"node-1/job-8\""));
    assertThat(Admission.of("node-1", "node-1/job-7", "node-2", "job-7")).isInstanceOf(Admission.Refused.class);
  }

  @Test
  void keysWithoutANodeCannotBeOurs() {
    assertThat(Admission.of("node-1", null, null, null)).isInstanceOf(Admission.Unkeyed.class);
    assertThat(Admission.of("node-1", "node-1", "node-1", "x")).isInstanceOf(Admission.Unkeyed.class);
  }
}
