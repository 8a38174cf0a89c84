package io.quotaflow.cgroups;

import java.io.IOException;
import java.time.Duration;

/**
 * Polls the kernel's freezer state until it reaches the wanted one or time runs out. Freezing
 * is asynchronous on both versions (v1 FREEZING, v2 {@code frozen 0}) and a task in D state can
 * hold it back indefinitely, so a bounded wait is the only honest answer.
 */
final class FreezeWait {

  interface Probe {
    FreezerState state() throws IOException;
  }

  private static final long MAX_SLEEP_MS = 20;

  private FreezeWait() {}

  static FreezeResult await(TaskId task, Probe probe, FreezerState wanted, Duration timeout,
      boolean wrote) throws IOException, InterruptedException {
    long start = System.nanoTime();
    long deadline = start + timeout.toNanos();
    long sleepMs = 1;
    while (true) {
      FreezerState state = probe.state();
      long now = System.nanoTime();
      long waitedMs = (now - start) / 1_000_000;
      if (state == wanted) {
        return new FreezeResult(task, wrote ? FreezeOutcome.APPLIED : FreezeOutcome.UNCHANGED,
            state, waitedMs);
      }
      if (now - deadline >= 0) {
        return new FreezeResult(task, FreezeOutcome.TIMED_OUT, state, waitedMs);
      }
      Thread.sleep(Math.max(1, Math.min(sleepMs, (deadline - now) / 1_000_000)));
      sleepMs = Math.min(sleepMs * 2, MAX_SLEEP_MS);
    }
  }
}
