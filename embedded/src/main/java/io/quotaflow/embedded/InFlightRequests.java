package io.quotaflow.embedded;

import java.time.Duration;

/** Counts requests being answered, so a stop lets them finish instead of cutting their connections. */
final class InFlightRequests {
  private int active;
  private boolean closing;

  /** False once closing: the caller answers 503 instead. */
  synchronized boolean enter() {
    if (closing) {
      return false;
    }
    active++;
    return true;
  }

  synchronized void exit() {
    active--;
    if (active == 0) {
      notifyAll();
    }
  }

  /** Refuses new requests and waits (at most {@code grace}) for the running ones; true when all finished. */
  synchronized boolean closeAndAwait(Duration grace) throws InterruptedException {
    closing = true;
    long deadline = System.nanoTime() + grace.toNanos();
    while (active > 0) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return true;
  }
}
