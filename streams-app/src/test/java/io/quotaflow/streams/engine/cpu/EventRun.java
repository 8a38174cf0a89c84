package io.quotaflow.streams.engine.cpu;

import java.util.ArrayList;
import java.util.List;

/** Plays generated events through the monitor, recording every step and the limits in force. */
final class EventRun {

  /** One step with the settings and hard limit it was given. */
  record Played(MonitorStep step, MonitorSettings settings, double hardLimitCpu, double softBefore) {
    double floorCpu() {
      return settings.floorCpu(hardLimitCpu);
    }
  }

  final List<Played> played = new ArrayList<>();

  static EventRun play(MonitorSettings initialSettings, double initialHardLimitCpu,
             List<MonitorArbitraries.Event> events) {
    EventRun run = new EventRun();
    JobCpuMonitor monitor = new JobCpuMonitor();
    MonitorSettings settings = initialSettings;
    double hard = initialHardLimitCpu;
    MonitorState state = MonitorState.initial(hard);
    long clockMs = MonitorDriver.START_TS_MS;
    long counterUsec = 0;
    for (MonitorArbitraries.Event e : events) {
      if (e.newHardLimitCpu() != null) {
        hard = e.newHardLimitCpu();
      }
      if (e.newMinCpuLimit() != null) {
        settings = settings.toBuilder().minCpuLimit(e.newMinCpuLimit()).build();
      }
      long tsMs;
      if (e.dtMs() >= 0) {
        clockMs += e.dtMs();
        tsMs = clockMs;
        counterUsec += Math.round(e.cores() * e.dtMs() * 1000);
      } else {
        tsMs = clockMs + e.dtMs();
      }
      if (e.counterReset()) {
        counterUsec /= 3;
      }
      MonitorStep step = monitor.step(state, settings, hard, new CpuReading(tsMs, counterUsec));
      run.played.add(new Played(step, settings, hard, state.softLimitCpu()));
      state = step.state();
    }
    return run;
  }

  List<MonitorStep> steps() {
    return played.stream().map(Played::step).toList();
  }
}
