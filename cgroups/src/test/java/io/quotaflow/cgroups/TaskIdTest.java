package io.quotaflow.cgroups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TaskIdTest {

  @ParameterizedTest
  @ValueSource(strings = {"job1", "a", "job-42.step_3", "user@host:7", "_x", "-", "a..b", "0"})
  void acceptsSafeNames(String id) {
    assertThat(TaskId.of(id).value()).isEqualTo(id);
  }

  @ParameterizedTest
  @ValueSource(strings = {".", "..", ".hidden", "a/b", "../x", "a b", "", "job\n", "jöb", "a\\b",
      "a\u0000b", "/abs"})
  void refusesUnsafeNames(String id) {
    assertThat(TaskId.isValid(id)).isFalse();
    assertThatThrownBy(() -> TaskId.of(id)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void limitsLengthTo128() {
    assertThat(TaskId.isValid("a".repeat(128))).isTrue();
    assertThatThrownBy(() -> TaskId.of("a".repeat(129)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("129 chars");
  }

  @Test
  void nullIsNotAnId() {
    assertThat(TaskId.isValid(null)).isFalse();
  }

  @Property
  void aValidIdAlwaysNamesADirectChildOfTheParent(@ForAll("candidates") String raw) {
    Path parent = Path.of("/sys/fs/cgroup/cpu/quotaflow");
    if (TaskId.isValid(raw)) {
      Path child = parent.resolve(raw);
      assertThat(child.getParent()).isEqualTo(parent);
      assertThat(child.normalize()).isEqualTo(child);
    } else {
      assertThatThrownBy(() -> TaskId.of(raw)).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Provide
  Arbitrary<String> candidates() {
    // Biased towards the characters that matter: dots, slashes and the allowed set.
    return Arbitraries.strings().withChars("aZ09._:@-/ \\").ofMinLength(0).ofMaxLength(140);
  }
}
