package io.quotaflow.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class DropOldestBufferTest {

  @Test
  void keepsOrderAndDropsTheOldestWhenFull() throws Exception {
    DropOldestBuffer<Integer> buffer = new DropOldestBuffer<>(3);
    assertThat(buffer.add(1)).isNull();
    assertThat(buffer.add(2)).isNull();
    assertThat(buffer.add(3)).isNull();
    assertThat(buffer.add(4)).isEqualTo(1);
    assertThat(buffer.add(5)).isEqualTo(2);
    assertThat(buffer.dropped()).isEqualTo(2);
    assertThat(buffer.size()).isEqualTo(3);
    assertThat(drain(buffer)).containsExactly(3, 4, 5);
  }

  @Test
  void aTakenElementPutBackIsFirstAgain() {
    DropOldestBuffer<Integer> buffer = new DropOldestBuffer<>(3);
    buffer.add(1);
    buffer.add(2);
    Integer taken = buffer.poll();
    buffer.add(3);
    assertThat(buffer.putBack(taken)).isTrue();
    assertThat(drain(buffer)).containsExactly(1, 2, 3);
    assertThat(buffer.dropped()).isZero();
  }

  @Test
  void putBackIntoAFullBufferDropsItAsTheOldest() {
    DropOldestBuffer<Integer> buffer = new DropOldestBuffer<>(2);
    buffer.add(1);
    Integer taken = buffer.poll();
    buffer.add(2);
    buffer.add(3);
    assertThat(buffer.putBack(taken)).isFalse();
    assertThat(buffer.dropped()).isEqualTo(1);
    assertThat(drain(buffer)).containsExactly(2, 3);
  }

  @Test
  void takeWaitsForAnElementAndGivesUpAtItsDeadline() throws Exception {
    DropOldestBuffer<String> buffer = new DropOldestBuffer<>(4);
    assertThat(buffer.take(Duration.ofMillis(20))).isNull();
    CompletableFuture<String> taken = CompletableFuture.supplyAsync(() -> {
      try {
        return buffer.take(Duration.ofSeconds(30));
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    buffer.add("sample");
    assertThat(taken.get(30, TimeUnit.SECONDS)).isEqualTo("sample");
  }

  @Test
  void capacityMustBePositive() {
    assertThatThrownBy(() -> new DropOldestBuffer<>(0)).hasMessageContaining("at least 1");
  }

  @Property
  void holdsTheNewestCapacityElementsAndCountsTheRest(@ForAll @IntRange(min = 1, max = 50) int capacity,
      @ForAll @IntRange(min = 0, max = 200) int added) {
    DropOldestBuffer<Integer> buffer = new DropOldestBuffer<>(capacity);
    for (int i = 0; i < added; i++) {
      buffer.add(i);
    }
    List<Integer> expected = new ArrayList<>();
    for (int i = Math.max(0, added - capacity); i < added; i++) {
      expected.add(i);
    }
    assertThat(buffer.dropped()).isEqualTo(Math.max(0, added - capacity));
    assertThat(drain(buffer)).isEqualTo(expected);
  }

  private static <T> List<T> drain(DropOldestBuffer<T> buffer) {
    List<T> out = new ArrayList<>();
    for (T next = buffer.poll(); next != null; next = buffer.poll()) {
      out.add(next);
    }
    return out;
  }
}
