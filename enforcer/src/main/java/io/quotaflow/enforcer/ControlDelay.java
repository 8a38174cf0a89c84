package io.quotaflow.enforcer;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.schemas.avro.EnforcementKind;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Sample → decision applied, as an enforcer measured it (the timer {@value #METER}, docs/enforcer.md
 * "Metrics"): from a decision record's timestamp, which is the broker append time of the sample that
 * caused it, to the cgroup written and read back, for decisions applied on receipt while tailing.
 *
 * <p>p50 and p99 are estimated from the timer's histogram buckets by linear interpolation inside
 * the bucket, as Prometheus' {@code histogram_quantile} does, so this line and a dashboard agree.
 * They cover everything recorded since the registry was created; a quantile above the top bucket
 * reads as the top bucket's bound (30 s).
 *
 * @param p50Ms median, ms
 * @param p99Ms 99th percentile, ms
 * @param count decisions measured
 */
public record ControlDelay(long p50Ms, long p99Ms, long count) {

  public static final String METER = "quotaflow.enforcer.control.delay";

  /**
   * The figures of one kind, empty when nothing of that kind was applied yet. Takes a Prometheus
   * registry (as every component's {@code OpsServer.newRegistry}) because its bucket counts are
   * cumulative since start, which is what the estimate needs.
   */
  public static Optional<ControlDelay> of(PrometheusMeterRegistry registry, EnforcementKind kind) {
    Timer timer = registry.find(METER).tag("kind", kind.name()).timer();
    if (timer == null || timer.count() == 0) {
      return Optional.empty();
    }
    HistogramSnapshot snapshot = timer.takeSnapshot();
    CountAtBucket[] buckets = snapshot.histogramCounts();
    long count = snapshot.count();
    return Optional.of(new ControlDelay(quantileMs(buckets, count, 0.5), quantileMs(buckets, count, 0.99), count));
  }

  /** The closing line's figures: {@code p50 120 ms, p99 480 ms (37)}. */
  public String summary() {
    return "p50 " + p50Ms + " ms, p99 " + p99Ms + " ms (" + count + ")";
  }

  /** {@code histogram_quantile} over cumulative buckets: linear inside the bucket the rank falls in. */
  static long quantileMs(CountAtBucket[] cumulative, long count, double q) {
    double rank = q * count;
    double lowerMs = 0;
    double below = 0;
    for (CountAtBucket bucket : cumulative) {
      double upperMs = bucket.bucket(TimeUnit.MILLISECONDS);
      if (Double.isInfinite(upperMs)) {
        break;
      }
      if (bucket.count() >= rank && bucket.count() > below) {
        return Math.round(lowerMs + (upperMs - lowerMs) * (rank - below) / (bucket.count() - below));
      }
      lowerMs = upperMs;
      below = bucket.count();
    }
    return Math.round(lowerMs);
  }
}
