package io.quotaflow.streams.engine.memory;

import java.util.ArrayList;
import java.util.List;

/** Shorthands for gate tests: sizes in MiB, one node, specs with the seed's 400 MiB normal and 1200 MiB peak. */
final class GateTesting {

  static final String NODE = "n1";
  static final long MIB = 1L << 20;
  static final long NORMAL_MIB = 400;
  static final long PEAK_MIB = 1200;

  private GateTesting() {}

  static long mib(long mib) {
    return mib * MIB;
  }

  static MemorySample sample(String task, long tsMs, long usageMib) {
    return MemorySample.running(task, tsMs, mib(usageMib));
  }

  static TaskMemorySpec batch(String task) {
    return TaskMemorySpec.batch(task, "op", mib(NORMAL_MIB), mib(PEAK_MIB));
  }

  static TaskMemorySpec interactive(String task) {
    return new TaskMemorySpec(task, "op", mib(NORMAL_MIB), mib(PEAK_MIB), true);
  }

  static PeakGateConfig count(int slots) {
    return PeakGateConfig.defaults(mib(4500)).withMaxConcurrentPeaks(slots);
  }

  static PeakGateConfig budget(long totalMib) {
    return PeakGateConfig.defaults(mib(totalMib)).withMode(GatingMode.BUDGET);
  }

  /** A gate with batch specs for the given tasks, all given at time 0. */
  static PeakGate gate(PeakGateConfig config, String... batchTasks) {
    PeakGate gate = new PeakGate(NODE, config, ProfileLookup.NONE);
    for (String task : batchTasks) {
      gate.onSpec(batch(task), 0);
    }
    return gate;
  }

  /** Feeds the same usage for several tasks at one time and returns every decision. */
  static List<GateDecision> tick(PeakGate gate, long tsMs, long usageMib, String... tasks) {
    List<GateDecision> out = new ArrayList<>();
    for (String task : tasks) {
      out.addAll(gate.onSample(sample(task, tsMs, usageMib)));
    }
    return out;
  }

  static GateDecision freeze(String task, long tsMs, GateReason reason, int position) {
    return new GateDecision(NODE, task, tsMs, GateAction.FREEZE, reason, position, 180_000L);
  }

  static GateDecision thaw(String task, long tsMs, GateReason reason) {
    return new GateDecision(NODE, task, tsMs, GateAction.THAW, reason, null, null);
  }
}
