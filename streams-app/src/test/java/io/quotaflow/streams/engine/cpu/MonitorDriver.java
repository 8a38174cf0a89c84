package io.quotaflow.streams.engine.cpu;

import java.util.ArrayList;
import java.util.List;

/**
 * Feeds one task's samples through the monitor the way a processor would, keeping the state and
 * a clock and a CPU counter, so tests can speak in ticks and cores instead of raw counters.
 */
final class MonitorDriver {

  static final long START_TS_MS = 1_700_000_000_000L;

  private final JobCpuMonitor monitor = new JobCpuMonitor();
  MonitorSettings settings;
  double hardLimitCpu;
  MonitorState state;
  long tsMs;
  long cpuUsageUsec;
  final List<MonitorStep> steps = new ArrayList<>();

  MonitorDriver(MonitorSettings settings, double hardLimitCpu) {
    this(settings, hardLimitCpu, MonitorState.initial(hardLimitCpu));
  }

  MonitorDriver(MonitorSettings settings, double hardLimitCpu, MonitorState state) {
    this.settings = settings;
    this.hardLimitCpu = hardLimitCpu;
    this.state = state;
    this.tsMs = state.tickCount() > 0 ? state.lastTickTsMs() : START_TS_MS;
    this.cpuUsageUsec = state.lastTickCpuUsageUsec();
  }

  /** A sample at an absolute time and counter value; the driver's clock and counter follow it. */
  MonitorStep sample(long atTsMs, long atCpuUsageUsec) {
    MonitorStep step = monitor.step(state, settings, hardLimitCpu, new CpuReading(atTsMs, atCpuUsageUsec));
    state = step.state();
    tsMs = Math.max(tsMs, atTsMs);
    cpuUsageUsec = atCpuUsageUsec;
    steps.add(step);
    return step;
  }

  /** A sample taken while the task was frozen, afterMs later: a frozen task's counter does not move. */
  MonitorStep frozen(long afterMs) {
    MonitorStep step = monitor.frozen(state, settings, hardLimitCpu, new CpuReading(tsMs + afterMs, cpuUsageUsec));
    state = step.state();
    tsMs += afterMs;
    steps.add(step);
    return step;
  }

  /** The first sample of the task, at the driver's clock. */
  MonitorStep first() {
    return sample(tsMs, cpuUsageUsec);
  }

  /** A sample afterMs later, during which the task used {@code cores} CPUs on average. */
  MonitorStep after(long afterMs, double cores) {
    long usedUsec = Math.round(cores * afterMs * 1000);
    return sample(tsMs + afterMs, cpuUsageUsec + usedUsec);
  }

  /** One check period later, using {@code cores} on average. */
  MonitorStep tick(double cores) {
    return after(settings.checkPeriodMs(), cores);
  }

  /** Runs n ticks at a constant usage and returns the soft-limit changes they produced. */
  List<SoftLimitChange> ticks(int n, double cores) {
    List<SoftLimitChange> changes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      tick(cores).change().ifPresent(changes::add);
    }
    return changes;
  }

  MonitorStep reconfigure(MonitorSettings newSettings, double newHardLimitCpu) {
    settings = newSettings;
    hardLimitCpu = newHardLimitCpu;
    MonitorStep step = monitor.reconfigure(state, settings, hardLimitCpu);
    state = step.state();
    steps.add(step);
    return step;
  }

  /** Tick numbers (1-based, as in the state) at which the soft limit moved by a vote decision. */
  List<Long> decisionTicks() {
    List<Long> ticks = new ArrayList<>();
    for (MonitorStep step : steps) {
      if (step.change().filter(c -> c.reason() != SoftLimitReason.CLAMPED).isPresent()) {
        ticks.add(step.state().tickCount());
      }
    }
    return ticks;
  }
}
