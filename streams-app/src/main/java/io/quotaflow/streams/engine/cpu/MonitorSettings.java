package io.quotaflow.streams.engine.cpu;

/**
 * A task's {@code job_cpu_monitor} settings: the same fields, defaults and validation ranges as
 * YTsaurus's {@code TJobCpuMonitorConfig}. Inclusive ranges are {@code InRange}, "&gt; 0" is
 * {@code GreaterThan}. YTsaurus checks no relation between fields (lower may exceed upper, the
 * threshold may be at least the window so that no decision ever fires) and neither do we.
 * Durations have no range in YTsaurus but cannot be negative there; we reject negative ones.
 *
 * @param enableCpuReclaim     whether the soft limit reaches the cgroup; the monitor's arithmetic
 *                             ignores it (the topology decides what to publish)
 * @param checkPeriodMs        interval between ticks, ms; a tick is the first sample at least
 *                             0.9 x this after the previous tick
 * @param startDelayMs         samples within this many ms of the task's first sample are ignored
 * @param smoothingFactor      weight of the newest usage in the moving average, [0, 1]
 * @param relativeUpperBound   vote +1 when smoothed / soft &gt; this, [0, 1]
 * @param relativeLowerBound   vote -1 when smoothed / soft &lt; this, [0, 1]
 * @param increaseCoefficient  soft limit factor on an increase, [1, 2]
 * @param decreaseCoefficient  soft limit factor on a decrease, [0, 1]
 * @param voteWindowSize       votes needed before a decision is considered, &gt; 0
 * @param voteDecisionThreshold a decision fires when the vote sum is beyond +-this, &gt; 0
 * @param minCpuLimit          floor of the soft limit in cores, [0, 1]; the floor is
 *                             min(this, hard limit)
 */
public record MonitorSettings(
    boolean enableCpuReclaim,
    long checkPeriodMs,
    long startDelayMs,
    double smoothingFactor,
    double relativeUpperBound,
    double relativeLowerBound,
    double increaseCoefficient,
    double decreaseCoefficient,
    int voteWindowSize,
    int voteDecisionThreshold,
    double minCpuLimit) {

  /** YTsaurus's code defaults, which are also the documented ones and the Avro schema's. */
  public static final MonitorSettings DEFAULTS = builder().build();

  public MonitorSettings {
    new Problems("job_cpu_monitor.")
        .atLeast("check_period_ms", checkPeriodMs, 0)
        .atLeast("start_delay_ms", startDelayMs, 0)
        .inRange("smoothing_factor", smoothingFactor, 0, 1)
        .inRange("relative_upper_bound", relativeUpperBound, 0, 1)
        .inRange("relative_lower_bound", relativeLowerBound, 0, 1)
        .inRange("increase_coefficient", increaseCoefficient, 1, 2)
        .inRange("decrease_coefficient", decreaseCoefficient, 0, 1)
        .greaterThan("vote_window_size", voteWindowSize, 0)
        .greaterThan("vote_decision_threshold", voteDecisionThreshold, 0)
        .inRange("min_cpu_limit", minCpuLimit, 0, 1)
        .throwIfAny();
  }

  /** The soft limit never goes below this: a task allotted less than min_cpu_limit is never decreased. */
  public double floorCpu(double hardLimitCpu) {
    return Math.min(minCpuLimit, hardLimitCpu);
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder()
        .enableCpuReclaim(enableCpuReclaim)
        .checkPeriodMs(checkPeriodMs)
        .startDelayMs(startDelayMs)
        .smoothingFactor(smoothingFactor)
        .relativeUpperBound(relativeUpperBound)
        .relativeLowerBound(relativeLowerBound)
        .increaseCoefficient(increaseCoefficient)
        .decreaseCoefficient(decreaseCoefficient)
        .voteWindowSize(voteWindowSize)
        .voteDecisionThreshold(voteDecisionThreshold)
        .minCpuLimit(minCpuLimit);
  }

  /** Named setters over the defaults, so a mapping from the Avro record cannot swap two doubles. */
  public static final class Builder {
    private boolean enableCpuReclaim = false;
    private long checkPeriodMs = 1000;
    private long startDelayMs = 0;
    private double smoothingFactor = 0.1;
    private double relativeUpperBound = 0.9;
    private double relativeLowerBound = 0.6;
    private double increaseCoefficient = 1.45;
    private double decreaseCoefficient = 0.97;
    private int voteWindowSize = 5;
    private int voteDecisionThreshold = 3;
    private double minCpuLimit = 1.0;

    private Builder() {
    }

    public Builder enableCpuReclaim(boolean value) {
      enableCpuReclaim = value;
      return this;
    }

    public Builder checkPeriodMs(long value) {
      checkPeriodMs = value;
      return this;
    }

    public Builder startDelayMs(long value) {
      startDelayMs = value;
      return this;
    }

    public Builder smoothingFactor(double value) {
      smoothingFactor = value;
      return this;
    }

    public Builder relativeUpperBound(double value) {
      relativeUpperBound = value;
      return this;
    }

    public Builder relativeLowerBound(double value) {
      relativeLowerBound = value;
      return this;
    }

    public Builder increaseCoefficient(double value) {
      increaseCoefficient = value;
      return this;
    }

    public Builder decreaseCoefficient(double value) {
      decreaseCoefficient = value;
      return this;
    }

    public Builder voteWindowSize(int value) {
      voteWindowSize = value;
      return this;
    }

    public Builder voteDecisionThreshold(int value) {
      voteDecisionThreshold = value;
      return this;
    }

    public Builder minCpuLimit(double value) {
      minCpuLimit = value;
      return this;
    }

    /** @throws InvalidSettingsException listing every field out of range */
    public MonitorSettings build() {
      return new MonitorSettings(enableCpuReclaim, checkPeriodMs, startDelayMs, smoothingFactor,
          relativeUpperBound, relativeLowerBound, increaseCoefficient, decreaseCoefficient,
          voteWindowSize, voteDecisionThreshold, minCpuLimit);
    }
  }
}
