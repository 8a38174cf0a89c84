package io.quotaflow.benchmarks;

/**
 * The memory model of seed 004's poorly behaved task (its figure 5), in MiB and ticks (one tick = one sample).
 *
 * @param baselineMib usage between peaks
 * @param noiseMib the baseline varies uniformly by up to this much either way, redrawn every running tick
 * @param peakMib the top of a peak, reached half-way through it
 * @param rampTicks ticks from the start of a peak back to the baseline
 * @param peaksToFinish a task has done its work after this many peaks
 */
record TaskShape(long baselineMib, long noiseMib, long peakMib, int rampTicks, int peaksToFinish) {

  /** The figures the issue takes from the seed: 400 MB ± 20 MB, peaks to 1200 MB over 20 ticks, 10 peaks. */
  static TaskShape seed004() {
    return new TaskShape(400, 20, 1200, 20, 10);
  }

  TaskShape {
    if (rampTicks < 2 || rampTicks % 2 != 0 || peaksToFinish < 1 || peakMib < baselineMib || noiseMib < 0) {
      throw new IllegalArgumentException("not a task shape: " + this);
    }
  }

  /** Extra usage {@code tick} ticks into a peak: linear up to the top at half the ramp, then linear down. */
  long rampMib(int tick) {
    if (tick <= 0 || tick >= rampTicks) {
      return 0;
    }
    int half = rampTicks / 2;
    return Math.round((peakMib - baselineMib) * (1.0 - Math.abs(tick - half) / (double) half));
  }

  /** The seed's peaks come more often at some times than others: 0.02 + 0.015·sin(2πt/500) per tick. */
  double peakStartProbability(int tick) {
    return 0.02 + 0.015 * Math.sin(2 * Math.PI * tick / 500.0);
  }
}
