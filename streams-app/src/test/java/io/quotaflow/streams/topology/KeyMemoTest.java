package io.quotaflow.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyMemoTest {

  @Test
  void aValuePutIsReadBackByAnEqualKeyUntilReplacedOrRemoved() {
    KeyMemo<String> memo = new KeyMemo<>(16);
    memo.put("node-1/task-1", "a");

    assertThat(memo.get(new String("node-1/task-1"))).isEqualTo("a");
    memo.put("node-1/task-1", "b");
    assertThat(memo.get("node-1/task-1")).isEqualTo("b");
    memo.remove("node-1/task-1");
    assertThat(memo.get("node-1/task-1")).isNull();
    assertThat(memo.get("node-1/task-2")).isNull();
  }

  @Test
  void keysWithTheSameHashAreStillTwoKeys() {
    KeyMemo<String> memo = new KeyMemo<>(16);
    assertThat("Aa".hashCode()).isEqualTo("BB".hashCode());
    memo.put("Aa", "a");
    memo.put("BB", "b");

    assertThat(memo.get("Aa")).isEqualTo("a");
    assertThat(memo.get("BB")).isEqualTo("b");
    memo.remove("Aa");
    assertThat(memo.get("Aa")).isNull();
    assertThat(memo.get("BB")).isEqualTo("b");
  }

  @Test
  void holdsNoMoreThanItsSlotsAndANewKeyReplacesTheOldestOfItsSet() {
    KeyMemo<String> memo = new KeyMemo<>(KeyMemo.WAYS); // one set: every key lands in it
    for (String key : new String[] {"a", "b", "c", "d"}) {
      memo.put(key, key + "1");
    }
    memo.put("a", "a2"); // written again, a is the newest: b is now the oldest
    memo.put("e", "e1");

    assertThat(memo.get("a")).isEqualTo("a2");
    assertThat(memo.get("b")).isNull();
    assertThat(memo.get("c")).isEqualTo("c1");
    assertThat(memo.get("d")).isEqualTo("d1");
    assertThat(memo.get("e")).isEqualTo("e1");
    memo.remove("a"); // the set is e, -, d, c
    memo.put("f", "f1"); // takes a's place: c, the oldest, stays
    assertThat(memo.get("a")).isNull();
    assertThat(memo.get("c")).isEqualTo("c1");
    assertThat(memo.get("d")).isEqualTo("d1");
    assertThat(memo.get("f")).isEqualTo("f1");
  }

  @Test
  void neverAnswersWithAValueTheKeyDoesNotHaveInTheMap() {
    KeyMemo<Integer> memo = new KeyMemo<>(8);
    Map<String, Integer> truth = new HashMap<>();
    Random random = new Random(7);
    for (int step = 0; step < 20_000; step++) {
      String key = "node-" + random.nextInt(5) + "/task-" + random.nextInt(12);
      switch (random.nextInt(3)) {
        case 0 -> {
          memo.put(key, step);
          truth.put(key, step);
        }
        case 1 -> {
          memo.remove(key);
          truth.remove(key);
        }
        default -> {
          Integer held = memo.get(key);
          if (held != null) {
            assertThat(held).as("step %d, key %s", step, key).isEqualTo(truth.get(key));
          }
        }
      }
    }
  }

  @Test
  void refusesASlotCountThatIsNotAPowerOfTwo() {
    assertThatThrownBy(() -> new KeyMemo<>(1000)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("power of two");
    assertThatThrownBy(() -> new KeyMemo<>(2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 4");
  }
}
