package io.quotaflow.collector;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.process.ops.Health;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CollectorHealthTest {

  final AtomicBoolean live = new AtomicBoolean(true);
  final AtomicInteger connections = new AtomicInteger(1);
  final AtomicLong nowMs = new AtomicLong(10_000);
  final PublishState publishing = new PublishState();
  final DropOldestBuffer<Outgoing> buffer = new DropOldestBuffer<>(10);
  final CollectorHealth health = new CollectorHealth(live::get, connections::get, publishing, buffer, nowMs::get,
      Duration.ofSeconds(10));

  static Outgoing sample(long tsMs) {
    return new Outgoing(Outgoing.Kind.SAMPLE, "samples", "n/t", new byte[0], tsMs, 0);
  }

  @Test
  void readyWhileConnectedAndStalenessIsTheAgeOfTheNewestAcknowledgedSample() {
    assertThat(health.check()).isEqualTo(new Health(true, true, -1, "publishing; 0 buffered"));
    publishing.sent(System.nanoTime());
    publishing.completed(sample(9_000), true, System.nanoTime());
    publishing.sent(System.nanoTime());
    publishing.completed(sample(8_000), true, System.nanoTime()); // an older one acknowledged later
    assertThat(health.check().stalenessMs()).isEqualTo(1_000);
    publishing.sent(System.nanoTime());
    publishing.completed(sample(9_500), false, System.nanoTime()); // failed: never published
    assertThat(health.check().stalenessMs()).isEqualTo(1_000);
  }

  @Test
  void notReadyWithoutABrokerConnection() {
    buffer.add(sample(1));
    connections.set(0);
    Health h = health.check();
    assertThat(h.live()).isTrue();
    assertThat(h.ready()).isFalse();
    assertThat(h.detail()).isEqualTo("not connected to the broker; 1 buffered");
  }

  @Test
  void notReadyWhenRecordsWaitLongerThanTheStallLimit() {
    long longAgo = System.nanoTime() - Duration.ofSeconds(11).toNanos();
    publishing.sent(longAgo);
    Health h = health.check();
    assertThat(h.ready()).isFalse();
    assertThat(h.detail()).startsWith("no acknowledgement for ").endsWith("1 in flight, 0 buffered");
    publishing.completed(sample(1), true, System.nanoTime());
    assertThat(health.check().ready()).isTrue();
  }

  @Test
  void aStoppedCollectorIsNeitherLiveNorReady() {
    live.set(false);
    assertThat(health.check()).extracting(Health::live, Health::ready).containsExactly(false, false);
  }
}
