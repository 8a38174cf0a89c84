package io.quotaflow.benchmarks;

import java.util.Arrays;

/** Every latency of a window, in milliseconds, for exact percentiles. One thread records; read after it stops. */
public final class Latencies {

  private long[] valuesMs = new long[1 << 16];
  private int count;

  public void record(long latencyMs) {
    if (count == valuesMs.length) {
      valuesMs = Arrays.copyOf(valuesMs, valuesMs.length * 2);
    }
    valuesMs[count++] = latencyMs;
  }

  /** Summary of what was recorded: nearest-rank percentiles; all -1 when nothing was. */
  public Summary summary() {
    if (count == 0) {
      return new Summary(0, -1, -1, -1, -1);
    }
    long[] sorted = Arrays.copyOf(valuesMs, count);
    Arrays.sort(sorted);
    return new Summary(count, rank(sorted, 0.50), rank(sorted, 0.99), rank(sorted, 0.999), sorted[count - 1]);
  }

  /**
   * How many values fall in each bucket: bucket i counts values at most {@code upperBoundsMs[i]} and
   * above the bound before it; the one extra bucket at the end counts the values above the last bound.
   */
  long[] histogram(long[] upperBoundsMs) {
    long[] counts = new long[upperBoundsMs.length + 1];
    for (int i = 0; i < count; i++) {
      int bucket = 0;
      while (bucket < upperBoundsMs.length && valuesMs[i] > upperBoundsMs[bucket]) {
        bucket++;
      }
      counts[bucket]++;
    }
    return counts;
  }

  private static long rank(long[] sorted, double quantile) {
    int index = (int) Math.ceil(quantile * sorted.length) - 1;
    return sorted[Math.max(0, index)];
  }

  public record Summary(int count, long p50Ms, long p99Ms, long p999Ms, long maxMs) {}
}
