package io.quotaflow.streams.topology;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;

/** The probe the running app uses: counters for {@code /metrics}, and the newest sample time for staleness. */
final class MeteredProbe implements TopologyProbe {

  private final Counter samples;
  private final Counter late;
  private final Counter decisions;
  private final Counter withdrawn;
  private final AtomicLong newestSampleTsMs = new AtomicLong(-1);

  MeteredProbe(MeterRegistry meters) {
    samples = meters.counter("quotaflow.streams.samples");
    late = meters.counter("quotaflow.streams.late.samples");
    decisions = meters.counter("quotaflow.streams.decisions", "kind", "decision");
    withdrawn = meters.counter("quotaflow.streams.decisions", "kind", "withdrawn");
    meters.gauge("quotaflow.streams.newest.sample.ts.ms", newestSampleTsMs);
  }

  @Override
  public void sampleHandled(long tsMs) {
    samples.increment();
    newestSampleTsMs.accumulateAndGet(tsMs, Math::max);
  }

  @Override
  public void lateSample() {
    late.increment();
  }

  @Override
  public void decisionPublished(boolean isWithdrawn) {
    (isWithdrawn ? withdrawn : decisions).increment();
  }

  /** Sample time of the newest sample handled, epoch ms; -1 before the first. */
  long newestSampleTsMs() {
    return newestSampleTsMs.get();
  }
}
