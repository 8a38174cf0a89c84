package io.quotaflow.streams.engine.memory;

/**
 * What finished runs of an operation used: the normal and peak the gate falls back to when a spec names none.
 *
 * @param normalBytes exponentially weighted average of each finished task's mean usage
 * @param peakBytes exponentially weighted average of each finished task's maximum usage
 * @param runs how many finished tasks went into it
 */
public record MemoryProfile(long normalBytes, long peakBytes, long runs) {

  public MemoryProfile {
    if (normalBytes <= 0 || peakBytes <= 0 || runs <= 0) {
      throw new IllegalArgumentException(
          "profile needs positive normal, peak and runs: " + normalBytes + ", " + peakBytes + ", " + runs);
    }
  }
}
