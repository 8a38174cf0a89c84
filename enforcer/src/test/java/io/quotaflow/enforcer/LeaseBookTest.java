package io.quotaflow.enforcer;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cgroups.TaskId;
import org.junit.jupiter.api.Test;

class LeaseBookTest {

  static final DecisionRef REF = new DecisionRef("quotaflow.freeze-decisions", 0, 1, 0);
  static final TaskId A = TaskId.of("a");
  static final TaskId B = TaskId.of("b");
  static final TaskId C = TaskId.of("c");

  @Test
  void nothingIsDueBeforeItsDeadline() {
    LeaseBook book = new LeaseBook(5_000);
    book.hold(A, 1_000, REF);
    assertThat(book.due(999)).isEmpty();
    assertThat(book.due(1_000)).map(LeaseBook.Lease::task).contains(A);
  }

  @Test
  void expiredLeasesAreThawedOneAtATimeEarliestFirst() {
    LeaseBook book = new LeaseBook(5_000);
    book.hold(B, 2_000, REF);
    book.hold(A, 3_000, REF);
    book.hold(C, 2_000, REF);
    long now = 10_000;
    assertThat(book.due(now)).map(LeaseBook.Lease::task).contains(B); // earliest, ties by id
    book.expiryThawAttempted(now);
    book.release(B);
    assertThat(book.due(now)).as("within the interval").isEmpty();
    assertThat(book.due(now + 4_999)).isEmpty();
    assertThat(book.due(now + 5_000)).map(LeaseBook.Lease::task).contains(C);
  }

  @Test
  void aFailedThawStillWaitsTheInterval() {
    LeaseBook book = new LeaseBook(5_000);
    book.hold(A, 0, REF);
    book.expiryThawAttempted(100);
    assertThat(book.due(200)).isEmpty();
    assertThat(book.due(5_100)).map(LeaseBook.Lease::task).contains(A);
  }

  @Test
  void renewingMovesTheDeadline() {
    LeaseBook book = new LeaseBook(0);
    book.hold(A, 1_000, REF);
    DecisionRef renewal = new DecisionRef("quotaflow.freeze-decisions", 0, 9, 900);
    book.hold(A, 5_000, renewal);
    assertThat(book.due(1_000)).isEmpty();
    assertThat(book.lease(A)).contains(new LeaseBook.Lease(A, 5_000, renewal));
  }

  @Test
  void aWithdrawnFreezeIsDueAtOnceButNeverLaterThanItsLease() {
    LeaseBook book = new LeaseBook(0);
    book.hold(A, 10_000, REF);
    book.endNow(A, 3_000);
    assertThat(book.lease(A).orElseThrow().expiresAtMs()).isEqualTo(3_000);
    book.hold(B, 1_000, REF);
    book.endNow(B, 3_000);
    assertThat(book.lease(B).orElseThrow().expiresAtMs()).isEqualTo(1_000);
    book.endNow(C, 3_000);
    assertThat(book.holds(C)).as("never frozen by us: still not ours").isFalse();
  }

  @Test
  void onlyHeldGroupsMayBeThawed() {
    LeaseBook book = new LeaseBook(0);
    assertThat(book.holds(A)).isFalse();
    book.hold(A, 1, REF);
    assertThat(book.holds(A)).isTrue();
    book.release(A);
    assertThat(book.holds(A)).isFalse();
    assertThat(book.all()).isEmpty();
  }
}
