package io.quotaflow.streams.topology;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.streams.engine.memory.GateStatus;
import io.quotaflow.streams.engine.pools.PoolAttributes;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The probe the running app uses: counters for {@code /metrics}, and the newest sample time for staleness. */
final class MeteredProbe implements TopologyProbe {

  private final Counter samples;
  private final Counter late;
  private final Counter decisions;
  private final Counter withdrawn;
  private final Counter freezes;
  private final Counter thaws;
  private final AtomicLong newestSampleTsMs = new AtomicLong(-1);
  /** The last status of each node's gate handled by this instance; gauges sum it up, so series stay few. */
  private final Map<String, GateStatus> gates = new ConcurrentHashMap<>();
  private final PoolGauges pools;

  MeteredProbe(MeterRegistry meters) {
    samples = Counter.builder("quotaflow.streams.samples").description("Samples handled").register(meters);
    late = Counter.builder("quotaflow.streams.late.samples")
        .description("Samples older than their task's last tick: dropped, not dead-lettered").register(meters);
    decisions = Counter.builder("quotaflow.streams.decisions").tag("kind", "decision")
        .description("CPU decisions published").register(meters);
    withdrawn = Counter.builder("quotaflow.streams.decisions").tag("kind", "withdrawn")
        .description("CPU decisions published").register(meters);
    // Prometheus' convention for a point in time: seconds since the epoch, so `time() - x` is an age.
    // NaN (no value) before the first sample, rather than an epoch 0 that every age alert would fire on.
    Gauge.builder("quotaflow.streams.newest.sample.timestamp", newestSampleTsMs,
            ts -> ts.get() < 0 ? Double.NaN : ts.get() / 1000.0)
        .baseUnit("seconds").description("Sample time of the newest sample handled, seconds since the epoch")
        .register(meters);
    freezes = Counter.builder("quotaflow.streams.freeze.decisions").tag("action", "FREEZE")
        .description("Freeze decisions published").register(meters);
    thaws = Counter.builder("quotaflow.streams.freeze.decisions").tag("action", "THAW")
        .description("Freeze decisions published").register(meters);
    Gauge.builder("quotaflow.streams.gate.waiting", gates, g -> g.values().stream().mapToInt(GateStatus::waiting).sum())
        .description("Tasks frozen in a peak wait queue, all nodes").register(meters);
    Gauge.builder("quotaflow.streams.gate.holders", gates, g -> g.values().stream().mapToInt(GateStatus::holders).sum())
        .description("Tasks holding a peak slot, all nodes").register(meters);
    Gauge.builder("quotaflow.streams.gate.head.wait", gates,
            g -> g.values().stream().mapToLong(GateStatus::headWaitMs).max().orElse(0) / 1000.0)
        .baseUnit("seconds").description("Longest wait of a queue head, stream time").register(meters);
    Gauge.builder("quotaflow.streams.gate.queue.wait.alerts", gates, g -> g.values().stream().filter(GateStatus::waitAlert).count())
        .description("Nodes whose queue head has waited longer than queue_wait_alert_ms").register(meters);
    pools = new PoolGauges(meters);
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

  @Override
  public void freezeDecisionPublished(String action) {
    ("FREEZE".equals(action) ? freezes : thaws).increment();
  }

  @Override
  public void gateStatus(String node, GateStatus status) {
    if (status.holders() == 0 && status.waiting() == 0) {
      gates.remove(node);
    } else {
      gates.put(node, status);
    }
  }

  @Override
  public void poolStates(List<PoolAttributes> states) {
    pools.show(states);
  }

  /** Sample time of the newest sample handled, epoch ms; -1 before the first. */
  long newestSampleTsMs() {
    return newestSampleTsMs.get();
  }
}
