package io.quotaflow.benchmarks;

import java.util.SplittableRandom;

/**
 * One poorly behaved task of seed 004: a noisy baseline, and now and then a peak that ramps linearly up and back
 * down. Only running time moves it on; a frozen task makes no progress and keeps its memory exactly.
 *
 * <p>A step of the model takes one tick ({@link MemoryExperiment#TICK_MS}) of running time. Within a step the
 * memory moves linearly from where the step began to where it ends, so that a reflex reading between samples sees
 * the task part-way, and a task frozen part-way stays exactly there and finishes the step once thawed. Run in
 * whole ticks, it is the discrete model of the seed.
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
  /** Running time spent in the current step, 0 .. TICK_MS−1; 0 also means the next step is not drawn yet. */
  private long stepMs;
  private int nextPeakTick;
  private int nextPeaksDone;
  private long nextNoiseMib;
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
    long from = memoryMib(peakTick, noiseMib);
    if (stepMs == 0) {
      return from;
    }
    long to = memoryMib(nextPeakTick, nextNoiseMib);
    return from + Math.round((to - from) * (double) stepMs / MemoryExperiment.TICK_MS);
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

  /** The first tick at or after the moment the task had done all its peaks; −1 while it runs. */
  int finishedAtTick() {
    return finishedAtTick;
  }

  /** Moves the task from tick {@code tick} to the next one, unless it is frozen. */
  void step(int tick) {
    run(tick * MemoryExperiment.TICK_MS, MemoryExperiment.TICK_MS);
  }

  /**
   * Runs the task for {@code ms} milliseconds from time {@code startMs}, unless it is frozen. A step draws its
   * randomness when it begins, with the peak probability of the tick it begins in.
   */
  void run(long startMs, long ms) {
    if (frozen) {
      return;
    }
    long now = startMs;
    long left = ms;
    while (left > 0 && !finished()) {
      if (stepMs == 0) {
        drawStep((int) (now / MemoryExperiment.TICK_MS));
      }
      long take = Math.min(left, MemoryExperiment.TICK_MS - stepMs);
      stepMs += take;
      now += take;
      left -= take;
      if (stepMs == MemoryExperiment.TICK_MS) {
        stepMs = 0;
        peakTick = nextPeakTick;
        peaksDone = nextPeaksDone;
        noiseMib = nextNoiseMib;
        if (peaksDone == shape.peaksToFinish()) {
          finishedAtTick = (int) ((now + MemoryExperiment.TICK_MS - 1) / MemoryExperiment.TICK_MS);
        }
      }
    }
  }

  private void drawStep(int tick) {
    nextPeakTick = peakTick;
    nextPeaksDone = peaksDone;
    if (peakTick == 0) {
      if (peakRandom.nextDouble() < shape.peakStartProbability(tick)) {
        nextPeakTick = 1;
      }
    } else if (++nextPeakTick == shape.rampTicks()) {
      nextPeakTick = 0;
      nextPeaksDone++;
    }
    nextNoiseMib = drawNoise();
  }

  private long memoryMib(int peakTick, long noiseMib) {
    return shape.baselineMib() + noiseMib + shape.rampMib(peakTick);
  }

  private long drawNoise() {
    return shape.noiseMib() == 0 ? 0 : noiseRandom.nextLong(-shape.noiseMib(), shape.noiseMib() + 1);
  }
}
