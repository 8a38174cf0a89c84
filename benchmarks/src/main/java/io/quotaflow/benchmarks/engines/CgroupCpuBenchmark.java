package io.quotaflow.benchmarks.engines;

import io.quotaflow.streams.engine.cpu.CgroupCpuCalculator;
import io.quotaflow.streams.engine.cpu.CgroupCpuTarget;
import io.quotaflow.streams.engine.cpu.CgroupCpuTunables;
import io.quotaflow.streams.engine.cpu.NodeCpu;
import io.quotaflow.streams.engine.cpu.TaskCpu;
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
 * The OpenPBS-style cgroup CPU settings, {@link CgroupCpuCalculator#compute}: the call
 * CpuDecisionMaker makes for every decision it publishes (not every sample). 1,024 tasks with
 * limits from 0 (zero-CPU) to 16 cores, cycled. Two cluster settings: the defaults, where only
 * zero-CPU tasks get a quota, and enforce_per_period_quota with hyperthreads, where every task's
 * quota goes through the decimal arithmetic.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CgroupCpuBenchmark {

  private static final int TASKS = 1_024;

  private final CgroupCpuCalculator calculator = new CgroupCpuCalculator();
  private final CgroupCpuTunables defaults = CgroupCpuTunables.DEFAULTS;
  private final CgroupCpuTunables quotas = new CgroupCpuTunables(100_000, 1.03, true, 0.002, 0.2, true, true);
  private final NodeCpu node = new NodeCpu(2);
  private TaskCpu[] tasks;
  private int task;

  @Setup
  public void setUp() {
    SplittableRandom random = new SplittableRandom(20);
    tasks = new TaskCpu[TASKS];
    for (int i = 0; i < TASKS; i++) {
      // One task in 32 is zero-CPU; the others' effective limit is the soft limit, at most the hard one.
      double ncpus = i % 32 == 0 ? 0 : 1 + random.nextInt(16);
      double hard = ncpus == 0 ? 0.5 : ncpus;
      tasks[i] = new TaskCpu(ncpus, hard, hard * random.nextDouble(0.1, 1.0));
    }
  }

  /** Defaults: no quota for tasks with CPUs, so shares and weight only. */
  @Benchmark
  public CgroupCpuTarget computeDefaults() {
    return calculator.compute(defaults, next(), node);
  }

  /** enforce_per_period_quota, ncpus are cores, hyperthreads used: every task gets a decimal quota. */
  @Benchmark
  public CgroupCpuTarget computeWithQuota() {
    return calculator.compute(quotas, next(), node);
  }

  private TaskCpu next() {
    TaskCpu next = tasks[task];
    task = (task + 1) & (TASKS - 1);
    return next;
  }
}
