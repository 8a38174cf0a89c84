package io.quotaflow.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class IdsTest {

  @ParameterizedTest
  @ValueSource(strings = {"a", "node-1", "task_7", "job:42@pool", "a.b", "a..b", "-leading-dash", "x.", "0"})
  void acceptsSafeIds(String id) {
    assertThat(Ids.isValid(id)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ".", "..", ".hidden", "a/b", "../x", "a b", "tab\t", "ü", "a\u0000b", "semi;colon"})
  void refusesUnsafeIds(String id) {
    assertThat(Ids.isValid(id)).isFalse();
    assertThatThrownBy(() -> Ids.requireValid("task", id))
        .isInstanceOf(Ids.InvalidIdException.class)
        .hasMessageContaining("invalid task id");
  }

  /** isValid checks by hand what {@link Ids#PATTERN_TEXT} says: the two must agree on every string. */
  @Property(tries = 2000)
  void agreesWithThePatternItDocuments(@ForAll("idLike") String id) {
    assertThat(Ids.isValid(id)).as("'%s'", id).isEqualTo(Ids.PATTERN.matcher(id).matches());
  }

  @Provide
  Arbitrary<String> idLike() {
    // Mostly id characters, some of what ids may not hold, lengths around the 128 limit.
    return Arbitraries.strings().withChars("aZ09._:@-/ \u00fc\t").ofMinLength(0).ofMaxLength(130)
        .edgeCases(e -> e.add("a".repeat(128)).add("a".repeat(129)).add(".").add(""));
  }

  @Test
  void acceptsExactly128Characters() {
    assertThat(Ids.isValid("a".repeat(128))).isTrue();
    assertThatThrownBy(() -> Ids.requireValid("node", "a".repeat(129)))
        .hasMessageContaining("longer than 128 characters")
        .hasMessageContaining("129 chars");
  }

  @Test
  void explainsWhyAnIdIsRefused() {
    assertThatThrownBy(() -> Ids.requireValid("task", "..")).hasMessageContaining("starts with a dot");
    assertThatThrownBy(() -> Ids.requireValid("task", "")).hasMessageContaining("empty");
    assertThatThrownBy(() -> Ids.requireValid("task", "a/b")).hasMessageContaining("character outside");
    assertThatThrownBy(() -> Ids.requireValid("task", null)).hasMessageContaining("missing");
  }

  @Test
  void parsesTaskKeys() {
    assertThat(TaskKey.parse("node-1/task-7")).isEqualTo(new TaskKey("node-1", "task-7"));
    assertThat(TaskKey.parse("node-1/task-7").toString()).isEqualTo("node-1/task-7");
    assertThat(TaskKey.nodeOf("node-1/task-7")).isEqualTo("node-1");
    assertThat(TaskKey.nodeOf("node-1")).isEqualTo("node-1");
    assertThat(TaskKey.taskOf("node-1/task-7")).isEqualTo("task-7");
    assertThatThrownBy(() -> TaskKey.taskOf("node-1")).hasMessageContaining("no '/'");
  }

  @Test
  void buildsTaskKeysAndNodePrefixesThatParseBack() {
    assertThat(TaskKey.keyOf("node-1", "task-7")).isEqualTo("node-1/task-7");
    assertThat(TaskKey.parse(TaskKey.keyOf("node-1", "task-7"))).isEqualTo(new TaskKey("node-1", "task-7"));
    assertThat(TaskKey.keyOf("node-1", "task-7")).startsWith(TaskKey.nodePrefix("node-1"));
    assertThat(TaskKey.nodePrefix("node-1")).isEqualTo("node-1/");
    assertThatThrownBy(() -> TaskKey.keyOf("node-1", "a/b")).isInstanceOf(Ids.InvalidIdException.class);
    assertThatThrownBy(() -> TaskKey.nodePrefix("..")).isInstanceOf(Ids.InvalidIdException.class);
  }

  @Test
  void refusesMalformedTaskKeys() {
    assertThatThrownBy(() -> TaskKey.parse("node-1")).hasMessageContaining("no '/'");
    assertThatThrownBy(() -> TaskKey.parse("node-1/../x")).isInstanceOf(Ids.InvalidIdException.class);
    assertThatThrownBy(() -> TaskKey.parse("node-1/")).hasMessageContaining("empty");
    assertThatThrownBy(() -> TaskKey.parse(null)).hasMessageContaining("missing");
  }
}
