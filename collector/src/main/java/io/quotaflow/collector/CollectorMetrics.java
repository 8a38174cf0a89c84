package io.quotaflow.collector;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The collector's meters, named once here. In Prometheus format they read
 * {@code quotaflow_collector_samples_published_total}, {@code ..._buffered},
 * {@code ..._samples_dropped_total}, {@code ..._read_errors_total},
 * {@code ..._sample_duration_seconds} (one observation per sampling round), and so on
 * (docs/operations.md "Metrics" lists them).
 */
public final class CollectorMetrics {

  private static final String PREFIX = "quotaflow.collector.";

  private final MeterRegistry registry;
  final Counter samplesPublished;
  final Counter statusesPublished;
  final Counter samplesDropped;
  final Counter goneSamples;
  final Counter readErrors;
  final Counter publishErrors;
  final Timer sampleDuration;

  public CollectorMetrics(MeterRegistry registry) {
    this.registry = registry;
    samplesPublished = Counter.builder(PREFIX + "samples.published")
        .description("Samples the broker acknowledged").register(registry);
    statusesPublished = Counter.builder(PREFIX + "node.statuses.published")
        .description("NodeStatus records the broker acknowledged").register(registry);
    samplesDropped = Counter.builder(PREFIX + "samples.dropped")
        .description("Samples dropped, oldest first, because the buffer was full").register(registry);
    goneSamples = Counter.builder(PREFIX + "gone.samples")
        .description("GONE samples: groups seen disappearing").register(registry);
    readErrors = Counter.builder(PREFIX + "read.errors")
        .description("Failed reads of a group or of the parent (the sample is skipped)").register(registry);
    publishErrors = Counter.builder(PREFIX + "publish.errors")
        .description("Records the producer refused or failed for good (not retriable)").register(registry);
    sampleDuration = Timer.builder(PREFIX + "sample.duration")
        .description("Time of one sampling round: discovery, reads, encoding").register(registry);
  }

  /** Gauges over live state (Micrometer holds them weakly: the collector keeps them alive). */
  void watch(DropOldestBuffer<Outgoing> buffer, PublishState publishing, Sampler sampler) {
    Gauge.builder(PREFIX + "buffered", buffer, DropOldestBuffer::size)
        .description("Records waiting in the collector's buffer (not yet handed to the producer)")
        .register(registry);
    Gauge.builder(PREFIX + "in.flight", publishing, PublishState::inFlight)
        .description("Records handed to the producer and not yet acknowledged").register(registry);
    Gauge.builder(PREFIX + "groups", sampler, Sampler::groups)
        .description("Task groups sampled in the last round").register(registry);
    Gauge.builder(PREFIX + "refused.groups", sampler, Sampler::refusedGroups)
        .description("Entries under the parent refused in the last listing (symlinks, names that are no valid task id)")
        .register(registry);
    Gauge.builder(PREFIX + "buffer.capacity", buffer, DropOldestBuffer::capacity)
        .description("Records the buffer holds before it drops the oldest").register(registry);
  }

  /** Counts a record the buffer dropped; a dropped node status is not counted (the next replaces it). */
  void dropped(Outgoing record) {
    if (record.kind() == Outgoing.Kind.SAMPLE) {
      samplesDropped.increment();
    }
  }

  public long samplesPublished() {
    return (long) samplesPublished.count();
  }

  public long samplesDropped() {
    return (long) samplesDropped.count();
  }

  public long readErrors() {
    return (long) readErrors.count();
  }

  public long publishErrors() {
    return (long) publishErrors.count();
  }

  public long goneSamples() {
    return (long) goneSamples.count();
  }

  public Timer sampleDuration() {
    return sampleDuration;
  }

  public MeterRegistry registry() {
    return registry;
  }
}
