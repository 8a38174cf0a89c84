package io.quotaflow.streams.engine.memory;

import java.util.Optional;

/** The gate's working copy of one task; {@link TaskGateState} is its stored form. */
final class TaskEntry {
  final String task;
  TaskMemorySpec spec;
  boolean live;
  long usageBytes;
  long maxUsageBytes;
  long lastSeenMs;
  GateRole role = GateRole.RUNNING;
  long waitingSinceMs;
  long lastFreezeSentMs;
  boolean decisionPublished;
  /** The operation's profile as last looked up for {@link #profileSpec} (PeakGate#profileOf); not part of the state. */
  Optional<MemoryProfile> profile;
  TaskMemorySpec profileSpec;
  long profileVersion;

  TaskEntry(String task) {
    this.task = task;
  }

  static TaskEntry of(TaskGateState s) {
    TaskEntry e = new TaskEntry(s.task());
    e.spec = s.spec();
    e.live = s.live();
    e.usageBytes = s.usageBytes();
    e.maxUsageBytes = s.maxUsageBytes();
    e.lastSeenMs = s.lastSeenMs();
    e.role = s.role();
    e.waitingSinceMs = s.waitingSinceMs();
    e.lastFreezeSentMs = s.lastFreezeSentMs();
    e.decisionPublished = s.decisionPublished();
    return e;
  }

  TaskGateState state() {
    return new TaskGateState(
        task, spec, live, usageBytes, maxUsageBytes, lastSeenMs, role, waitingSinceMs, lastFreezeSentMs,
        decisionPublished);
  }

  boolean interactive() {
    return spec != null && spec.interactive();
  }

  /** Forgets the run (GONE or idle) but keeps the spec, which only a tombstone removes. */
  void endRun() {
    live = false;
    role = GateRole.RUNNING;
    usageBytes = 0;
    maxUsageBytes = 0;
  }
}
