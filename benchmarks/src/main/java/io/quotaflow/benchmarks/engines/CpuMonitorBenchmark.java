package io.quotaflow.benchmarks.engines;

import io.quotaflow.streams.engine.cpu.CpuReading;
import io.quotaflow.streams.engine.cpu.JobCpuMonitor;
import io.quotaflow.streams.engine.cpu.MonitorSettings;
import io.quotaflow.streams.engine.cpu.MonitorState;
import io.quotaflow.streams.engine.cpu.MonitorStep;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The job CPU monitor's step, the call CpuDecisionMaker.onSample makes for every running sample:
 * {@code new CpuReading(ts, usage)} then {@link JobCpuMonitor#step}. 5,000 tasks sampled round-robin,
 * one stored {@link MonitorState} per task as the app keeps one, one sample per task per second with
 * the default 1 s check period: every sample after a task's first is a tick that smooths and votes,
 * the monitor's most expensive path. Usage wanders between 10 % and 100 % of the hard limit so that
 * decisions fire. The Avro mapping of the state around the step (toEngine/toRecord) is the topology's
 * and not measured here.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CpuMonitorBenchmark {

  static final int TASKS = 5_000;
  private static final long SAMPLE_PERIOD_MS = 1_000;
  private static final long START_TS_MS = 1_700_000_000_000L;
  /** Usage fractions cycled per task: long enough that tasks do not move in step. */
  private static final int USAGE_PATTERN = 4_096;

  private final JobCpuMonitor monitor = new JobCpuMonitor();
  private final MonitorSettings settings = MonitorSettings.builder().enableCpuReclaim(true).build();
  private MonitorState[] states;
  private double[] hardLimitCpu;
  private long[] cpuUsageUsec;
  private double[] usageFraction;
  private int task;
  private long round;

  @Setup
  public void setUp() {
    SplittableRandom random = new SplittableRandom(20);
    states = new MonitorState[TASKS];
    hardLimitCpu = new double[TASKS];
    cpuUsageUsec = new long[TASKS];
    for (int i = 0; i < TASKS; i++) {
      hardLimitCpu[i] = 1 + random.nextInt(16);
      states[i] = MonitorState.initial(hardLimitCpu[i]);
    }
    usageFraction = new double[USAGE_PATTERN];
    double fraction = 0.5;
    for (int i = 0; i < USAGE_PATTERN; i++) {
      fraction = Math.min(1.0, Math.max(0.1, fraction + random.nextDouble(-0.1, 0.1)));
      usageFraction[i] = fraction;
    }
  }

  /** One sample of the next task in turn. */
  @Benchmark
  public MonitorStep step() {
    int i = task;
    long tsMs = START_TS_MS + round * SAMPLE_PERIOD_MS;
    long usedUsec = (long) (hardLimitCpu[i] * usageFraction[(int) ((round + i) % USAGE_PATTERN)]
        * SAMPLE_PERIOD_MS * 1000);
    cpuUsageUsec[i] += usedUsec;
    MonitorStep step = monitor.step(states[i], settings, hardLimitCpu[i], new CpuReading(tsMs, cpuUsageUsec[i]));
    states[i] = step.state();
    if (++task == TASKS) {
      task = 0;
      round++;
    }
    return step;
  }
}
