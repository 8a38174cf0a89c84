package io.quotaflow.collector;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What {@code /health} needs to know about publishing: how many records the producer holds
 * unacknowledged, since when nothing was acknowledged while some waited, and the time of the
 * newest sample the broker acknowledged. Updated from the publisher thread and the producer's
 * callbacks.
 */
final class PublishState {

  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicLong progressNanos = new AtomicLong();
  private final AtomicLong newestSampleTsMs = new AtomicLong(-1);

  /** A record was handed to the producer. */
  void sent(long nowNanos) {
    if (inFlight.getAndIncrement() == 0) {
      progressNanos.set(nowNanos); // the wait for an acknowledgement starts now
    }
  }

  /** The broker acknowledged a record (or the producer gave it up for good). */
  void completed(Outgoing record, boolean acknowledged, long nowNanos) {
    inFlight.decrementAndGet();
    progressNanos.set(nowNanos);
    if (acknowledged && record.kind() == Outgoing.Kind.SAMPLE) {
      newestSampleTsMs.accumulateAndGet(record.tsMs(), Math::max);
    }
  }

  /** A record handed over was refused at once and taken back. */
  void withdrawn() {
    inFlight.decrementAndGet();
  }

  int inFlight() {
    return inFlight.get();
  }

  /** How long records have waited with no acknowledgement; 0 when none waits. */
  long stalledNanos(long nowNanos) {
    return inFlight.get() > 0 ? Math.max(0, nowNanos - progressNanos.get()) : 0;
  }

  /** {@code ts_ms} of the newest acknowledged sample; -1 before the first. */
  long newestSampleTsMs() {
    return newestSampleTsMs.get();
  }
}
