package io.quotaflow.streams.topology;

import io.quotaflow.schemas.avro.JobCpuMonitorConfig;
import io.quotaflow.streams.engine.cpu.MonitorSettings;

/** A spec's {@code job_cpu_monitor} section as the engine's settings: the one mapping, for the topology and for tools that predict its decisions. */
public final class SpecSettings {

  private SpecSettings() {}

  /** Throws {@link io.quotaflow.streams.engine.cpu.InvalidSettingsException} when a value is out of range. */
  public static MonitorSettings monitor(JobCpuMonitorConfig c) {
    return MonitorSettings.builder()
        .enableCpuReclaim(c.getEnableCpuReclaim())
        .checkPeriodMs(c.getCheckPeriodMs())
        .startDelayMs(c.getStartDelayMs())
        .smoothingFactor(c.getSmoothingFactor())
        .relativeUpperBound(c.getRelativeUpperBound())
        .relativeLowerBound(c.getRelativeLowerBound())
        .increaseCoefficient(c.getIncreaseCoefficient())
        .decreaseCoefficient(c.getDecreaseCoefficient())
        .voteWindowSize(c.getVoteWindowSize())
        .voteDecisionThreshold(c.getVoteDecisionThreshold())
        .minCpuLimit(c.getMinCpuLimit())
        .build();
  }
}
