package io.quotaflow.collector;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves records from the buffer to the producer, oldest first, holding at most
 * {@code maxInFlight} unacknowledged. The producer never gives up on a record it holds (its
 * delivery timeout is unbounded) and, idempotent, retries without reordering or duplicating; the
 * window keeps what it holds small, so during an outage the rest waits in the buffer, where the
 * oldest are dropped when it is full. When the broker returns, the producer's records go first,
 * then the buffer drains in order.
 */
final class Publisher implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(Publisher.class);
  /** How often an idle publisher looks at whether it should stop. */
  private static final Duration IDLE_WAIT = Duration.ofMillis(200);
  /** Pause after the producer refused a record outright, so a persistent refusal does not spin. */
  private static final Duration REFUSED_PAUSE = Duration.ofSeconds(1);

  private final Producer<String, byte[]> producer;
  private final DropOldestBuffer<Outgoing> buffer;
  private final Semaphore window;
  private final CollectorMetrics metrics;
  private final PublishState state;
  private volatile boolean stopping;
  private volatile long drainDeadlineNanos;
  private volatile boolean failingReported;

  Publisher(Producer<String, byte[]> producer, DropOldestBuffer<Outgoing> buffer, int maxInFlight,
      CollectorMetrics metrics, PublishState state) {
    this.producer = producer;
    this.buffer = buffer;
    this.window = new Semaphore(maxInFlight);
    this.metrics = metrics;
    this.state = state;
  }

  @Override
  public void run() {
    try {
      while (!stopping || (System.nanoTime() < drainDeadlineNanos && buffer.size() > 0)) {
        if (!window.tryAcquire(IDLE_WAIT.toNanos(), TimeUnit.NANOSECONDS)) {
          continue; // the producer holds a full window: the broker is slow or away
        }
        Outgoing next = buffer.take(IDLE_WAIT);
        if (next == null) {
          window.release();
          continue;
        }
        send(next);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Stops taking from the buffer; until {@code drainFor} has passed, first hands on what is
   * buffered. The caller then closes the producer, which delivers what it holds.
   */
  void stop(Duration drainFor) {
    drainDeadlineNanos = System.nanoTime() + drainFor.toNanos();
    stopping = true;
  }

  private void send(Outgoing record) throws InterruptedException {
    state.sent(System.nanoTime());
    Thread sender = Thread.currentThread();
    Exception[] refused = {null};
    try {
      // The samples topic keeps LogAppendTime (the skew check needs it); nodes keeps this time.
      producer.send(new ProducerRecord<>(record.topic(), null, record.tsMs(), record.key(), record.value()),
          (metadata, error) -> {
            // KafkaProducer reports a retriable refusal before queueing (no metadata within
            // max.block.ms, as while the broker is away) through this callback, on the sending
            // thread, instead of throwing it: that record was never sent and is not lost.
            if (error instanceof RetriableException && Thread.currentThread() == sender) {
              refused[0] = error;
            } else {
              completed(record, error);
            }
          });
    } catch (KafkaException | IllegalStateException e) {
      refused[0] = e; // a fatal producer state, a closed producer
    }
    if (refused[0] != null) {
      // Refused before it was queued: nothing was sent, so it goes back where it was.
      state.withdrawn();
      window.release();
      if (!buffer.putBack(record)) {
        metrics.dropped(record);
      }
      reportFailure("the producer refused a record", refused[0]);
      Thread.sleep(REFUSED_PAUSE.toMillis());
    }
  }

  private void completed(Outgoing record, Exception error) {
    state.completed(record, error == null, System.nanoTime());
    window.release();
    if (error == null) {
      if (record.kind() == Outgoing.Kind.SAMPLE) {
        metrics.samplesPublished.increment();
      } else {
        metrics.statusesPublished.increment();
      }
      if (failingReported) {
        failingReported = false;
        LOG.info("publishing again");
      }
      return;
    }
    // With an unbounded delivery timeout only non-retriable errors end up here: the record is lost.
    metrics.publishErrors.increment();
    reportFailure("a record to " + record.topic() + " (seq " + record.seq() + ") failed for good", error);
  }

  private void reportFailure(String what, Exception error) {
    if (!failingReported || !(error instanceof RetriableException)) {
      failingReported = true;
      LOG.warn("{}: {}", what, error.getMessage());
    }
  }
}
