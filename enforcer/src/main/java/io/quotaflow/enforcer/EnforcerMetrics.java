package io.quotaflow.enforcer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The enforcer's meters (docs/operations.md "Metrics"). Results are one counter tagged by kind and
 * status, so applied, unchanged, failed and rejected are one query apart and always sum to the
 * results published; every combination, every skip reason and every topic read is registered at
 * start so dashboards and {@code rate()} see zeros, not gaps.
 */
final class EnforcerMetrics implements AutoCloseable {

  /** Cgroup writes: a file write and read-back take well under a millisecond; a freeze waits for the kernel. */
  private static final Duration[] LATENCY_BUCKETS = {
      Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(50),
      Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(5)};

  /**
   * Delays through the pipeline (commit interval, transaction, fetch): tens to hundreds of ms, with a
   * target below one sample period (1 s by default). Fine around that target, because p50 and p99
   * are read from these buckets ({@link ControlDelay}, Prometheus' {@code histogram_quantile}).
   */
  private static final Duration[] DELAY_BUCKETS = {
      Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
      Duration.ofMillis(75), Duration.ofMillis(100), Duration.ofMillis(150), Duration.ofMillis(200),
      Duration.ofMillis(300), Duration.ofMillis(400), Duration.ofMillis(500), Duration.ofMillis(750),
      Duration.ofSeconds(1), Duration.ofMillis(1500), Duration.ofSeconds(2), Duration.ofSeconds(3),
      Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30)};

  /** The reflex: a reading, then a freeze that waits for the kernel; its goal is 100 ms from crossing to FROZEN. */
  private static final Duration[] REFLEX_BUCKETS = {
      Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
      Duration.ofMillis(50), Duration.ofMillis(75), Duration.ofMillis(100), Duration.ofMillis(150),
      Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(5)};

  private final MeterRegistry registry;
  private final Counter reflexFreezes;
  private final Timer reflexDelay;
  private final Map<EnforcementKind, Map<EnforcementStatus, Counter>> results = new EnumMap<>(EnforcementKind.class);
  private final Map<EnforcementKind, Timer> applyLatency = new EnumMap<>(EnforcementKind.class);
  private final Map<EnforcementKind, Timer> decisionDelay = new EnumMap<>(EnforcementKind.class);
  private final Map<EnforcementKind, Timer> controlDelay = new EnumMap<>(EnforcementKind.class);
  /** Skip reasons besides {@link Step.SkipReason}'s, named where the records are read. */
  private static final List<String> FEED_SKIP_REASONS = List.of("other_node", "unkeyed", "withdrawn", "missing_reported",
      "before_reflex");

  /** Null while starting: no mode is in force until the cluster config was read. */
  private final AtomicReference<Mode> mode = new AtomicReference<>();
  /** Gauges read this enforcer's objects, so they leave the registry with it; counters and timers carry on. */
  private final List<Meter> gauges = new ArrayList<>();
  private final TaskLimitGauges taskLimits;

  EnforcerMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.taskLimits = new TaskLimitGauges(registry);
    for (EnforcementKind kind : EnforcementKind.values()) {
      Map<EnforcementStatus, Counter> byStatus = new EnumMap<>(EnforcementStatus.class);
      for (EnforcementStatus status : EnforcementStatus.values()) {
        byStatus.put(status, Counter.builder("quotaflow.enforcer.results")
            .description("Enforcement results published, by decision kind and status")
            .tag("kind", kind.name()).tag("status", status.name()).register(registry));
      }
      results.put(kind, byStatus);
      applyLatency.put(kind, Timer.builder("quotaflow.enforcer.apply.latency")
          .description("Time to write a decision to the cgroup and read it back (freeze: until the kernel reports it)")
          .tag("kind", kind.name()).serviceLevelObjectives(LATENCY_BUCKETS).register(registry));
      decisionDelay.put(kind, Timer.builder("quotaflow.enforcer.decision.delay")
          .description("Every decision handled while tailing, whatever came of it: from its record timestamp to the"
              + " enforcer starting to act on it (before any cgroup write)")
          .tag("kind", kind.name()).serviceLevelObjectives(DELAY_BUCKETS).register(registry));
      controlDelay.put(kind, Timer.builder(ControlDelay.METER)
          .description("Decisions applied (APPLIED) on receipt while tailing: from the record timestamp, the causing"
              + " sample's broker append time, to the cgroup written and read back (freeze: reported FROZEN)")
          .tag("kind", kind.name()).serviceLevelObjectives(DELAY_BUCKETS).register(registry));
    }
    // A state as a label, one series per mode valued 1 for the one in force: a dashboard shows
    // `mode` by name and an alert says quotaflow_enforcer_mode{mode="OFF"} == 1, not a coded number.
    for (Mode each : Mode.values()) {
      gauges.add(Gauge.builder("quotaflow.enforcer.mode", mode, m -> m.get() == each ? 1 : 0)
          .description("1 for the enforcement mode in force, 0 for the others (all 0 while starting)")
          .tag("mode", each.name()).register(registry));
    }
    for (String reason : FEED_SKIP_REASONS) {
      skipped(reason, 0);
    }
    for (Step.SkipReason reason : Step.SkipReason.values()) {
      skipped(reason.name().toLowerCase(Locale.ROOT), 0);
    }
    reflexFreezes = Counter.builder("quotaflow.enforcer.reflex.freezes")
        .description("Tasks the memory reflex froze between samples (results REFLEX_FROZEN)").register(registry);
    reflexDelay = Timer.builder("quotaflow.enforcer.reflex.delay")
        .description("Memory reflex: from the reading that crossed a task's threshold to the kernel reporting FROZEN")
        .serviceLevelObjectives(REFLEX_BUCKETS).register(registry);
    registry.counter("quotaflow.enforcer.publish.failures");
    registry.counter("quotaflow.enforcer.state.file.failures");
    for (Admission.Why why : Admission.Why.values()) {
      registry.counter("quotaflow.enforcer.refused", "reason", why.label());
    }
  }

  /** Registers the undecodable-record counters of the topics read, so each starts at zero. */
  void reads(List<String> topics) {
    topics.forEach(topic -> registry.counter("quotaflow.enforcer.undecodable", "topic", topic));
  }

  void result(EnforcementKind kind, EnforcementStatus status) {
    results.get(kind).get(status).increment();
  }

  void applyLatency(EnforcementKind kind, long nanos) {
    applyLatency.get(kind).record(nanos, TimeUnit.NANOSECONDS);
  }

  void decisionDelay(EnforcementKind kind, long millis) {
    decisionDelay.get(kind).record(Math.max(0, millis), TimeUnit.MILLISECONDS);
  }

  /** A decision received while tailing was applied at {@code nowMs}: sample → decision applied. */
  void controlDelay(EnforcementKind kind, DecisionRef decision, long nowMs) {
    controlDelay.get(kind).record(Math.max(0, nowMs - decision.recordTimestampMs()), TimeUnit.MILLISECONDS);
  }

  /** The reflex froze a task {@code nanos} after the reading that crossed its threshold. */
  void reflexFreeze(long nanos) {
    reflexFreezes.increment();
    reflexDelay.record(Math.max(0, nanos), TimeUnit.NANOSECONDS);
  }

  /** A decision that needed no answer: another node's, {@code apply=false}, a stale FREEZE, a tombstone. */
  void skipped(String reason) {
    skipped(reason, 1);
  }

  private void skipped(String reason, int count) {
    registry.counter("quotaflow.enforcer.skipped", "reason", reason).increment(count);
  }

  /** A decision of this node refused before any path was resolved: an unsafe task id, a value naming another task. */
  void refused(Admission.Why why) {
    registry.counter("quotaflow.enforcer.refused", "reason", why.label()).increment();
  }

  /** A record that does not decode; it is skipped (logged, and answered REJECTED when it is ours). */
  void undecodable(String topic) {
    registry.counter("quotaflow.enforcer.undecodable", "topic", topic).increment();
  }

  void publishFailed() {
    registry.counter("quotaflow.enforcer.publish.failures").increment();
  }

  void stateFileFailed() {
    registry.counter("quotaflow.enforcer.state.file.failures").increment();
  }

  void mode(Mode inForce) {
    mode.set(inForce);
  }

  /** Gauges read live from the enforcer's thread-safe views. */
  void gauges(Supplier<Number> tasks, Supplier<Number> frozenByUs, Supplier<Number> reflexWatched) {
    gauges.add(Gauge.builder("quotaflow.enforcer.reflex.watched.tasks", reflexWatched)
        .description("Tasks whose memory the reflex reads between samples").register(registry));
    gauges.add(Gauge.builder("quotaflow.enforcer.tasks", tasks).description("Tasks of this node with a current decision")
        .register(registry));
    gauges.add(Gauge.builder("quotaflow.enforcer.frozen.groups", frozenByUs).description("Groups this enforcer froze and holds a lease on")
        .register(registry));
  }

  /** The limits of the tasks with a current CPU decision; the series of the others are removed. */
  void taskLimits(Map<TaskId, CpuLimits> limits) {
    taskLimits.show(limits);
  }

  /** A task's latest CPU decision (its limits), or its withdrawal ({@code limits} null). */
  void taskLimits(TaskId task, CpuLimits limits) {
    if (limits == null) {
      taskLimits.remove(task);
    } else {
      taskLimits.show(task, limits);
    }
  }

  /** Removes the gauges, so an enforcer started again on the same registry (a restart in one process) registers its own. */
  @Override
  public void close() {
    gauges.forEach(registry::remove);
    gauges.clear();
    taskLimits.close();
  }
}
