package io.quotaflow.benchmarks;

import java.util.SplittableRandom;

/**
 * One poorly behaved task of seed 004: a noisy baseline, and now and then a peak that ramps linearly up and back
 * down. Only running ticks move it on; a frozen task makes no progress and keeps its memory exactly.
 */
final class SimulatedTask {

  private final String id;
  private final TaskShape shape;
  // Two streams so that the noise a task draws never shifts when its peaks start, and vice versa.
  private final SplittableRandom peakRandom;
  private final SplittableRandom noiseRandom;
  /** 0 on the baseline; 1 .. rampTicks−1 inside a peak. */
  private int peakTick;
  private int peaksDone;
  private long noiseMib;
  private boolean frozen;
  private int finishedAtTick = -1;

  SimulatedTask(String id, TaskShape shape, SplittableRandom random) {
    this.id = id;
    this.shape = shape;
    this.peakRandom = random.split();
    this.noiseRandom = random.split();
    this.noiseMib = drawNoise();
  }

  String id() {
    return id;
  }

  long memoryMib() {
    return shape.baselineMib() + noiseMib + shape.rampMib(peakTick);
  }

  boolean frozen() {
    return frozen;
  }

  void setFrozen(boolean frozen) {
    this.frozen = frozen;
  }

  boolean finished() {
    return finishedAtTick >= 0;
  }

  /** The tick at which the task had done all its peaks; −1 while it runs. */
  int finishedAtTick() {
    return finishedAtTick;
  }

  /** Moves the task from tick {@code tick} to the next one, unless it is frozen. */
  void step(int tick) {
    if (frozen || finished()) {
      return;
    }
    if (peakTick == 0) {
      if (peakRandom.nextDouble() < shape.peakStartProbability(tick)) {
        peakTick = 1;
      }
    } else if (++peakTick == shape.rampTicks()) {
      peakTick = 0;
      if (++peaksDone == shape.peaksToFinish()) {
        finishedAtTick = tick + 1;
      }
    }
    noiseMib = drawNoise();
  }

  private long drawNoise() {
    return shape.noiseMib() == 0 ? 0 : noiseRandom.nextLong(-shape.noiseMib(), shape.noiseMib() + 1);
  }
}
