package io.quotaflow.cli.demo;

/**
 * A task's own progress: wall time while it runs, but a gap longer than {@link #MAX_STEP_MS} between
 * two looks (the task was frozen, or starved) counts as that much only. So a frozen allocator picks
 * up its schedule where it stopped instead of jumping ahead by the time it was frozen.
 */
final class ProgressClock {

  static final long MAX_STEP_MS = 300;

  private long progressMs;
  private long lastNanos;

  ProgressClock(long startNanos) {
    this.lastNanos = startNanos;
  }

  /** Progress at {@code nowNanos}, in milliseconds. */
  long advance(long nowNanos) {
    progressMs += Math.min(MAX_STEP_MS, Math.max(0, (nowNanos - lastNanos) / 1_000_000));
    lastNanos = nowNanos;
    return progressMs;
  }
}
