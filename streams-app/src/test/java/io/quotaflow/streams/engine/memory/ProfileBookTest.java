package io.quotaflow.streams.engine.memory;

import static io.quotaflow.streams.engine.memory.GateTesting.mib;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ProfileBookTest {

  @Test
  void firstFinishedTaskSetsTheProfile() {
    ProfileBook book = new ProfileBook(0.3);
    assertThat(book.profile("etl")).isEmpty();
    assertThat(book.learn(new FinishedTaskUsage("etl", mib(500), mib(1200))))
        .isEqualTo(new MemoryProfile(mib(500), mib(1200), 1));
  }

  @Test
  void laterRunsBlendInByTheirWeight() {
    ProfileBook book = new ProfileBook(0.25);
    book.learn(new FinishedTaskUsage("etl", 400, 1200));
    book.learn(new FinishedTaskUsage("etl", 800, 2000));
    // 0.25 × 800 + 0.75 × 400 = 500; 0.25 × 2000 + 0.75 × 1200 = 1400.
    assertThat(book.profile("etl")).contains(new MemoryProfile(500, 1400, 2));
    book.learn(new FinishedTaskUsage("etl", 500, 1400));
    assertThat(book.profile("etl")).contains(new MemoryProfile(500, 1400, 3));
  }

  @Test
  void oneOddRunMovesTheProfileOnlyByItsWeight() {
    ProfileBook book = new ProfileBook();
    for (int i = 0; i < 10; i++) {
      book.learn(new FinishedTaskUsage("etl", mib(500), mib(1200)));
    }
    MemoryProfile after = book.learn(new FinishedTaskUsage("etl", mib(5000), mib(9000)));
    assertThat(after.normalBytes()).isEqualTo(Math.round(0.3 * mib(5000) + 0.7 * mib(500)));
    assertThat(after.peakBytes()).isLessThan(mib(9000));
  }

  @Test
  void operationsAreLearnedApart() {
    ProfileBook book = new ProfileBook();
    book.learn(new FinishedTaskUsage("etl", 400, 1200));
    book.learn(new FinishedTaskUsage("train", 4000, 8000));
    assertThat(book.profile("etl")).contains(new MemoryProfile(400, 1200, 1));
    assertThat(book.profile("train")).contains(new MemoryProfile(4000, 8000, 1));
  }

  @Test
  void snapshotRestoresTheSameBook() {
    ProfileBook book = new ProfileBook(0.5);
    book.learn(new FinishedTaskUsage("etl", 400, 1200));
    ProfileBook restored = ProfileBook.restore(0.5, book.snapshot());
    book.learn(new FinishedTaskUsage("etl", 600, 1000));
    restored.learn(new FinishedTaskUsage("etl", 600, 1000));
    assertThat(restored.snapshot()).isEqualTo(book.snapshot());
  }

  @Test
  void rejectsAWeightOutsideZeroToOne() {
    assertThatThrownBy(() -> new ProfileBook(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ProfileBook(1.5)).isInstanceOf(IllegalArgumentException.class);
  }
}
