package io.quotaflow.cli.demo;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The demo's closing figure for the control loop: how long from a sample to its FREEZE applied, as the
 * enforcer's timer {@value #TIMER} (tag {@code kind=FREEZE}) measured it in the demo's registry. The
 * timer's percentiles when it publishes them; otherwise, from its histogram, the bucket bound each
 * percentile falls under ("≤"). Empty when there is no such timer or it recorded nothing.
 */
public final class ControlDelay {

  static final String TIMER = "quotaflow.enforcer.control.delay";

  private ControlDelay() {}

  /** E.g. {@code sample → FREEZE applied p50 180 ms, p99 420 ms}. */
  public static Optional<String> freezeSummary(MeterRegistry meters) {
    Timer timer = meters.find(TIMER).tag("kind", "FREEZE").timer();
    if (timer == null || timer.count() == 0) {
      return Optional.empty();
    }
    HistogramSnapshot snapshot = timer.takeSnapshot();
    return Optional.of("sample → FREEZE applied p50 " + percentile(snapshot, 0.5) + ", p99 " + percentile(snapshot, 0.99));
  }

  private static String percentile(HistogramSnapshot snapshot, double q) {
    for (ValueAtPercentile v : snapshot.percentileValues()) {
      if (Math.abs(v.percentile() - q) < 1e-9) {
        return milliseconds(v.value(TimeUnit.MILLISECONDS));
      }
    }
    double wanted = q * snapshot.count();
    for (CountAtBucket bucket : snapshot.histogramCounts()) {
      if (bucket.count() >= wanted) {
        return "≤ " + milliseconds(bucket.bucket(TimeUnit.MILLISECONDS));
      }
    }
    return "> " + milliseconds(snapshot.histogramCounts().length == 0
        ? snapshot.max(TimeUnit.MILLISECONDS) : lastBucketMs(snapshot));
  }

  private static double lastBucketMs(HistogramSnapshot snapshot) {
    CountAtBucket[] buckets = snapshot.histogramCounts();
    return buckets[buckets.length - 1].bucket(TimeUnit.MILLISECONDS);
  }

  private static String milliseconds(double ms) {
    return String.format(Locale.ROOT, "%.0f ms", ms);
  }
}
