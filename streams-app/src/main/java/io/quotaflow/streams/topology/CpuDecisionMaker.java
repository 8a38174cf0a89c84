package io.quotaflow.streams.topology;

import io.quotaflow.schemas.avro.CgroupCpuSettings;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.MonitorStateRecord;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import io.quotaflow.streams.engine.cpu.CgroupCpuCalculator;
import io.quotaflow.streams.engine.cpu.CgroupCpuTarget;
import io.quotaflow.streams.engine.cpu.CgroupCpuTunables;
import io.quotaflow.streams.engine.cpu.CpuReading;
import io.quotaflow.streams.engine.cpu.JobCpuMonitor;
import io.quotaflow.streams.engine.cpu.MonitorSettings;
import io.quotaflow.streams.engine.cpu.MonitorState;
import io.quotaflow.streams.engine.cpu.MonitorStep;
import io.quotaflow.streams.engine.cpu.NodeCpu;
import io.quotaflow.streams.engine.cpu.TaskCpu;
import io.quotaflow.streams.engine.cpu.Vote;
import io.quotaflow.streams.engine.pools.PoolCaps;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Maps the topology's records onto the CPU engines and back: from a task's stored state and one
 * event (a sample, a spec, a config) to its next state and, when something an enforcer or a reader
 * would see changed, a {@link CpuDecision}. No Kafka here, so every decision path is testable
 * directly; the processors only move records between stores and topics.
 */
final class CpuDecisionMaker {

  /** Why a decision was published; {@code /RECLAIM_OFF} and {@code /NO_SPEC} qualify it. */
  enum Event {
    INITIAL, INCREASE, DECREASE, CLAMPED, SPEC_CHANGED, CONFIG_CHANGED, NODE_CHANGED, POOL_CAP;

    /** Made once: a decision's reason is one of these, not a new string per decision. */
    private final String noSpec = name() + "/NO_SPEC";
    private final String reclaimOff = name() + "/RECLAIM_OFF";
  }

  /** A move of the effective limit smaller than this (relative) is no POOL_CAP decision: caps change every period. */
  static final double POOL_CAP_MIN_CHANGE = 0.01;

  /** Where a task finds its pool's cap ratio (DESIGN §3): 1 for a pool with no cap broadcast yet. */
  @FunctionalInterface
  interface PoolCapLookup {
    PoolCapLookup NONE = pool -> 1.0;

    double capRatio(String pool);
  }

  /**
   * The next state (null: delete it) and what to publish: a tombstone (withdraw the task's decision),
   * a decision, both (withdraw, then start anew), or nothing.
   */
  record Outcome(TaskCpuState state, CpuDecision decision, boolean tombstone, boolean late) {
    static Outcome keep(TaskCpuState state) {
      return new Outcome(state, null, false, false);
    }
  }

  private final JobCpuMonitor monitor = new JobCpuMonitor();
  private final CgroupCpuCalculator cgroupCpu = new CgroupCpuCalculator();

  /** Throws {@link io.quotaflow.streams.engine.cpu.InvalidSettingsException} when the spec's monitor settings are out of range. */
  static MonitorSettings monitorSettings(TaskSpec spec) {
    return spec == null ? MonitorSettings.DEFAULTS : SpecSettings.monitor(spec.getJobCpuMonitor());
  }

  static CgroupCpuTunables cgroupCpuTunables(ClusterConfig cluster) {
    return new CgroupCpuTunables(cluster.getCfsPeriodUs(), cluster.getCfsQuotaFudgeFactor(), cluster.getEnforcePerPeriodQuota(),
        cluster.getZeroCpusSharesFraction(), cluster.getZeroCpusQuotaFraction(), cluster.getNcpusAreCores(),
        cluster.getUseHyperthreads());
  }

  /** A new sample of a task; {@code state} is null for a task never seen. */
  Outcome onSample(TaskCpuState state, CgroupSample sample, ClusterConfig cluster, NodeStatus node, PoolCapLookup caps) {
    if (sample.getState() == SampleState.GONE) {
      // The cgroup is gone: nothing is left to enforce, and its spec will be tombstoned by the job system.
      return new Outcome(null, null, state != null && state.getLastDecision() != null, false);
    }
    // One shallow copy, then setters: the caller's state is left as it was (its pool contribution
    // is compared with the next one), and nested records are replaced, never changed in place.
    // A builder per change deep-copied the whole state, spec and last decision included, each time.
    TaskCpuState current = state != null ? copy(state) : emptyState(sample.getNode(), sample.getTask(), null);
    boolean resumedAfterIdle = current.getFirstSeenTsMs() != null
        && sample.getTsMs() - current.getLastSampleTsMs() > cluster.getTaskIdleTimeoutMs();
    boolean withdrawFirst = false;
    if (resumedAfterIdle) {
      // Judged on the task's own samples, so a task's decisions do not depend on whether an idle
      // sweep (driven by other tasks' samples) reached it first: either way it is withdrawn, then starts anew.
      withdrawFirst = current.getLastDecision() != null;
      clearRun(current);
    }
    boolean firstSeen = current.getFirstSeenTsMs() == null;
    if (firstSeen) {
      current.setFirstSeenTsMs(sample.getTsMs());
      current.setObservedHardLimitCpu(current.getSpec() == null ? observedHardLimit(sample, node) : null);
    }
    current.setLastSampleTsMs(Math.max(current.getLastSampleTsMs(), sample.getTsMs()));

    TaskSpec spec = current.getSpec();
    double hard = hardLimit(current);
    Event event = null;
    Integer firedVotesSum = null;
    boolean late = false;
    boolean tick = false;
    if (!isZeroCpu(spec)) {
      MonitorState monitorState = current.getMonitor() == null ? MonitorState.initial(hard) : toEngine(current.getMonitor());
      CpuReading reading = new CpuReading(sample.getTsMs(), sample.getCpuUsageUsec());
      MonitorStep step = sample.getState() == SampleState.FROZEN
          ? monitor.frozen(monitorState, monitorSettings(spec), hard, reading)
          : monitor.step(monitorState, monitorSettings(spec), hard, reading);
      late = step.isLate();
      tick = step.outcome() == io.quotaflow.streams.engine.cpu.SampleOutcome.TICK;
      current.setMonitor(toRecord(step.state()));
      if (step.change().isPresent()) {
        event = Event.valueOf(step.change().get().reason().name());
        firedVotesSum = step.change().get().votesSum(); // the window is already cleared: report the sum that fired
      }
    }
    if (firstSeen) {
      event = Event.INITIAL;
    }
    if (event == null && tick && capMoved(current, caps)) {
      event = Event.POOL_CAP; // a new cap takes effect at the task's next tick
    }
    if (event == null) {
      return new Outcome(current, null, false, late);
    }
    CpuDecision decision = decide(current, event, sample.getTsMs(), cluster, node, caps);
    if (firedVotesSum != null) {
      decision.setVotesSum(firedVotesSum);
    }
    current.setLastDecision(kept(decision));
    return new Outcome(current, decision, withdrawFirst, late);
  }

  /** A new or changed spec; {@code state} is null for a task not yet known. */
  Outcome onSpec(TaskCpuState state, TaskSpec spec, long tsMs, ClusterConfig cluster, NodeStatus node, PoolCapLookup caps) {
    // Copied shallowly, as on every sample: a builder's deep copy gave the state copies of the spec and the last
    // decision, no longer the instances the processor shares among its tasks (TaskStores.shared).
    TaskCpuState current = copy(state != null ? state : emptyState(spec.getNode(), spec.getTask(), spec));
    current.setSpec(spec);
    current.setObservedHardLimitCpu(null);
    if (current.getFirstSeenTsMs() == null) {
      return Outcome.keep(current); // no cgroup sampled yet: the first sample publishes the decision
    }
    double hard = hardLimit(current);
    if (isZeroCpu(spec)) {
      current.setMonitor(null);
    } else {
      MonitorState monitorState = current.getMonitor() == null ? MonitorState.initial(hard) : toEngine(current.getMonitor());
      MonitorStep step = monitor.reconfigure(monitorState, monitorSettings(spec), hard);
      current.setMonitor(toRecord(step.state()));
    }
    return republish(current, Event.SPEC_CHANGED, tsMs, cluster, node, caps);
  }

  /** A spec tombstone: the task is gone for the job system. */
  Outcome onSpecDeleted(TaskCpuState state) {
    return new Outcome(null, null, state != null && state.getLastDecision() != null, false);
  }

  /** A cluster config or node status change: republish where the outcome differs. */
  Outcome onEnvironmentChange(TaskCpuState state, Event event, long tsMs, ClusterConfig cluster, NodeStatus node,
      PoolCapLookup caps) {
    if (state.getFirstSeenTsMs() == null) {
      return Outcome.keep(state);
    }
    return republish(state, event, tsMs, cluster, node, caps);
  }

  /** A task that sent nothing for the idle timeout: its decision is withdrawn, its spec kept for when it returns. */
  Outcome onIdle(TaskCpuState state) {
    boolean published = state.getLastDecision() != null;
    TaskCpuState next = state.getSpec() == null ? null : reset(state);
    return new Outcome(next, null, published, false);
  }

  private Outcome republish(TaskCpuState state, Event event, long tsMs, ClusterConfig cluster, NodeStatus node,
      PoolCapLookup caps) {
    CpuDecision decision = decide(state, event, tsMs, cluster, node, caps);
    if (state.getLastDecision() != null && sameEffect(state.getLastDecision(), decision)) {
      return Outcome.keep(state);
    }
    TaskCpuState next = copy(state);
    next.setLastDecision(kept(decision));
    return new Outcome(next, decision, false, false);
  }

  private CpuDecision decide(TaskCpuState state, Event event, long tsMs, ClusterConfig cluster, NodeStatus node,
      PoolCapLookup caps) {
    TaskSpec spec = state.getSpec();
    double hard = hardLimit(state);
    boolean zeroCpu = isZeroCpu(spec);
    boolean reclaim = spec != null && !zeroCpu && spec.getJobCpuMonitor().getEnableCpuReclaim();
    MonitorStateRecord m = state.getMonitor();
    double soft = m == null ? hard : m.getSoftLimitCpu();
    // DESIGN §3: the pool's cap scales what the task reports, with reclaim on (soft) or off (hard).
    double effective = effectiveLimit(state, caps);
    double ncpus = spec == null ? hard : spec.getNcpus();
    CgroupCpuTarget values = cgroupCpu.compute(cgroupCpuTunables(cluster), new TaskCpu(ncpus, hard, effective),
        nodeCpu(node));
    String reason = spec == null ? event.noSpec : !reclaim && !zeroCpu ? event.reclaimOff : event.name();
    return CpuDecision.newBuilder()
        .setNode(state.getNode())
        .setTask(state.getTask())
        .setTsMs(tsMs)
        .setHardLimitCpu(hard)
        .setSoftLimitCpu(soft)
        .setEffectiveLimitCpu(effective)
        .setSmoothedUsageCpu(m == null ? null : m.getSmoothedUsageCpu())
        .setVotesSum(m == null ? 0 : m.getVotes().stream().mapToInt(Integer::intValue).sum())
        .setReason(reason)
        .setApply(spec != null)
        .setCgroup(CgroupCpuSettings.newBuilder().setShares(values.shares()).setWeight(values.weight())
            .setQuotaUs(values.quotaUs()).setPeriodUs(values.periodUs()).build())
        .build();
  }

  /**
   * A task's reported limit (DESIGN §1): its soft limit with reclaim on, its hard limit with reclaim
   * off, what YTsaurus would send its scheduler and what its pool counts.
   */
  static double reportedLimit(TaskCpuState state) {
    TaskSpec spec = state.getSpec();
    double hard = hardLimit(state);
    boolean reclaim = spec != null && !isZeroCpu(spec) && spec.getJobCpuMonitor().getEnableCpuReclaim();
    MonitorStateRecord m = state.getMonitor();
    return reclaim && m != null ? m.getSoftLimitCpu() : hard;
  }

  /** The reported limit times the pool's cap; a task without spec is in no pool. */
  private static double effectiveLimit(TaskCpuState state, PoolCapLookup caps) {
    double reported = reportedLimit(state);
    return state.getSpec() == null ? reported : PoolCaps.effectiveLimitCpu(reported, caps.capRatio(state.getSpec().getPool()));
  }

  /** Whether the cap moved the task's effective limit by at least {@link #POOL_CAP_MIN_CHANGE} since its last decision. */
  private static boolean capMoved(TaskCpuState state, PoolCapLookup caps) {
    CpuDecision last = state.getLastDecision();
    if (last == null || state.getSpec() == null) {
      return false;
    }
    double now = effectiveLimit(state, caps);
    double before = last.getEffectiveLimitCpu();
    return before == 0 ? now > 0 : Math.abs(now - before) >= POOL_CAP_MIN_CHANGE * before;
  }

  /**
   * {@code decision} as a state keeps it, its last: without its ids, which are the state's (and its key's), so a
   * state written on every sample does not repeat them (StoredTaskState). Nested records are shared.
   */
  static CpuDecision kept(CpuDecision decision) {
    return new CpuDecision("", "", decision.getTsMs(), decision.getHardLimitCpu(), decision.getSoftLimitCpu(),
        decision.getEffectiveLimitCpu(), decision.getSmoothedUsageCpu(), decision.getVotesSum(), decision.getReason(),
        decision.getApply(), decision.getCgroup());
  }

  /** What an enforcer or a pool would notice; the reason, time and smoothed usage do not count. */
  static boolean sameEffect(CpuDecision a, CpuDecision b) {
    return a.getHardLimitCpu() == b.getHardLimitCpu()
        && a.getSoftLimitCpu() == b.getSoftLimitCpu()
        && a.getEffectiveLimitCpu() == b.getEffectiveLimitCpu()
        && a.getApply() == b.getApply()
        && Objects.equals(a.getCgroup(), b.getCgroup());
  }

  static double hardLimit(TaskCpuState state) {
    TaskSpec spec = state.getSpec();
    if (spec == null) {
      return state.getObservedHardLimitCpu();
    }
    return spec.getCpuLimit() != null ? spec.getCpuLimit() : spec.getNcpus();
  }

  private static boolean isZeroCpu(TaskSpec spec) {
    return spec != null && spec.getNcpus() == 0;
  }

  /** A task without spec: its quota if it has one, else the node's CPUs, else one CPU until the node reports. */
  private static double observedHardLimit(CgroupSample sample, NodeStatus node) {
    if (sample.getCpuQuotaCores() != null) {
      return sample.getCpuQuotaCores();
    }
    return node != null && node.getCpus() > 0 ? node.getCpus() : 1.0;
  }

  private static NodeCpu nodeCpu(NodeStatus node) {
    if (node == null) {
      return new NodeCpu(1);
    }
    return new NodeCpu(Math.max(1, node.getThreadsPerCore()));
  }

  private static TaskCpuState emptyState(String node, String task, TaskSpec spec) {
    return TaskCpuState.newBuilder().setNode(node).setTask(task).setSpec(spec).build();
  }

  private static TaskCpuState reset(TaskCpuState state) {
    TaskCpuState next = copy(state);
    clearRun(next);
    return next;
  }

  /** Forgets the task's run (first sample, monitor, last decision); keeps its identity and spec. */
  private static void clearRun(TaskCpuState state) {
    state.setFirstSeenTsMs(null);
    state.setObservedHardLimitCpu(null);
    state.setMonitor(null);
    state.setLastDecision(null);
    state.setLastSampleTsMs(0L);
  }

  /** A new state record sharing the nested records of {@code state} (which are replaced, never changed). */
  static TaskCpuState copy(TaskCpuState state) {
    return new TaskCpuState(state.getNode(), state.getTask(), state.getSpec(), state.getObservedHardLimitCpu(),
        state.getFirstSeenTsMs(), state.getLastSampleTsMs(), state.getMonitor(), state.getLastDecision());
  }

  // Both conversions run on every sample, so they loop by index instead of a lambda per vote; List.of makes the one
  // copy of the votes, which MonitorState then keeps (List.copyOf returns an immutable list as it is).
  static MonitorState toEngine(MonitorStateRecord r) {
    List<Integer> values = r.getVotes();
    Vote[] votes = new Vote[values.size()];
    for (int i = 0; i < votes.length; i++) {
      votes[i] = Vote.ofValue(values.get(i));
    }
    return new MonitorState(r.getHardLimitCpu(), r.getSoftLimitCpu(), r.getFirstSampleTsMs(), r.getTickCount(),
        r.getLastTickTsMs(), r.getLastTickCpuUsageUsec(), r.getSmoothedUsageCpu(), List.of(votes),
        r.getLateSampleCount(), r.getAwaitingBaseline());
  }

  static MonitorStateRecord toRecord(MonitorState s) {
    List<Vote> engineVotes = s.votes();
    List<Integer> votes = new ArrayList<>(engineVotes.size());
    for (int i = 0; i < engineVotes.size(); i++) {
      votes.add(engineVotes.get(i).value());
    }
    return MonitorStateRecord.newBuilder().setHardLimitCpu(s.hardLimitCpu()).setSoftLimitCpu(s.softLimitCpu())
        .setFirstSampleTsMs(s.firstSampleTsMs()).setTickCount(s.tickCount()).setLastTickTsMs(s.lastTickTsMs())
        .setLastTickCpuUsageUsec(s.lastTickCpuUsageUsec()).setSmoothedUsageCpu(s.smoothedUsageCpu()).setVotes(votes)
        .setLateSampleCount(s.lateSampleCount()).setAwaitingBaseline(s.awaitingBaseline()).build();
  }
}
