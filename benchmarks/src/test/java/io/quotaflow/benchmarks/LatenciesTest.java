package io.quotaflow.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LatenciesTest {

  @Test
  void percentilesAreNearestRankOverEveryValue() {
    Latencies latencies = new Latencies();
    for (int ms = 100_000; ms >= 1; ms--) { // more than the initial capacity, in reverse order
      latencies.record(ms);
    }
    Latencies.Summary summary = latencies.summary();
    assertThat(summary.count()).isEqualTo(100_000);
    assertThat(summary.p50Ms()).isEqualTo(50_000);
    assertThat(summary.p99Ms()).isEqualTo(99_000);
    assertThat(summary.p999Ms()).isEqualTo(99_900);
    assertThat(summary.maxMs()).isEqualTo(100_000);
  }

  @Test
  void oneValueIsEveryPercentileAndNoneIsMinusOne() {
    Latencies one = new Latencies();
    one.record(42);
    assertThat(one.summary()).isEqualTo(new Latencies.Summary(1, 42, 42, 42, 42));
    assertThat(new Latencies().summary()).isEqualTo(new Latencies.Summary(0, -1, -1, -1, -1));
  }

  @Test
  void histogramCountsEachValueOnceInTheFirstBucketThatHoldsIt() {
    Latencies latencies = new Latencies();
    for (long ms : new long[] {0, 1, 2, 3, 5, 6, 10, 11, 500}) {
      latencies.record(ms);
    }
    // buckets: <= 1, (1, 5], (5, 10], above 10
    assertThat(latencies.histogram(new long[] {1, 5, 10})).containsExactly(2, 3, 2, 2);
    assertThat(new Latencies().histogram(new long[] {1})).containsExactly(0, 0);
  }
}
