package io.quotaflow.collector;

import io.quotaflow.process.ops.Health;
import io.quotaflow.process.ops.HealthCheck;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * {@code /health} of a collector. Live while its sampling and publishing threads run; ready while
 * it is connected to the broker and records are being acknowledged (none has waited longer than
 * the stall limit); staleness is the age of the newest sample the broker acknowledged.
 */
final class CollectorHealth implements HealthCheck {

  private final BooleanSupplier live;
  private final IntSupplier brokerConnections;
  private final PublishState publishing;
  private final DropOldestBuffer<Outgoing> buffer;
  private final LongSupplier clockMs;
  private final long stallLimitNanos;

  /**
   * @param brokerConnections open connections of the producer (its {@code connection-count})
   * @param stallLimit how long records may wait for an acknowledgement while still "ready"
   */
  CollectorHealth(BooleanSupplier live, IntSupplier brokerConnections, PublishState publishing,
      DropOldestBuffer<Outgoing> buffer, LongSupplier clockMs, Duration stallLimit) {
    this.live = live;
    this.brokerConnections = brokerConnections;
    this.publishing = publishing;
    this.buffer = buffer;
    this.clockMs = clockMs;
    this.stallLimitNanos = stallLimit.toNanos();
  }

  @Override
  public Health check() {
    long newest = publishing.newestSampleTsMs();
    long staleness = newest < 0 ? -1 : Math.max(0, clockMs.getAsLong() - newest);
    if (!live.getAsBoolean()) {
      return new Health(false, false, staleness, "stopped");
    }
    long stalledMs = publishing.stalledNanos(System.nanoTime()) / 1_000_000;
    int buffered = buffer.size();
    if (brokerConnections.getAsInt() == 0) {
      return new Health(true, false, staleness, "not connected to the broker; " + buffered + " buffered");
    }
    if (stalledMs * 1_000_000 > stallLimitNanos) {
      return new Health(true, false, staleness, "no acknowledgement for " + stalledMs + " ms; "
          + publishing.inFlight() + " in flight, " + buffered + " buffered");
    }
    return new Health(true, true, staleness, "publishing; " + buffered + " buffered");
  }
}
