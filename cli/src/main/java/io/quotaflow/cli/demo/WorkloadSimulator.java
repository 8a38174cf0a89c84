package io.quotaflow.cli.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plays the kernel for a {@link SimulatedCgroupTree}: every tick it asks each task's workload
 * shape what it wants, holds it to the quota and freezer state the enforcer wrote, splits the
 * node's CPUs between the tasks by their {@code cpu.shares} ({@link CpuShareSplit}), and adds what
 * each got to its {@code cpuacct.usage}. A stepping allocator's memory files follow its
 * {@link MemorySchedule} over its progress, which, as in the real allocator, stands still while it
 * is frozen. A freeze request is answered at once, as FROZEN.
 */
public final class WorkloadSimulator implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(WorkloadSimulator.class);
  static final long TICK_MS = 100;

  private final SimulatedCgroupTree tree;
  private final List<DemoTask> tasks;
  private final double capacityCores;
  private final long[] usageNs;
  /** Each task's own progress: time it was not frozen, for its memory schedule. */
  private final long[] progressNs;
  private final long[] memoryBytes;
  private final long[] maxMemoryBytes;
  private final long startNanos;
  private final Thread thread;
  private volatile boolean running = true;

  private WorkloadSimulator(SimulatedCgroupTree tree, List<DemoTask> tasks, double capacityCores) {
    this.tree = tree;
    this.tasks = List.copyOf(tasks);
    this.capacityCores = capacityCores;
    this.usageNs = new long[tasks.size()];
    this.progressNs = new long[tasks.size()];
    this.memoryBytes = new long[tasks.size()];
    this.maxMemoryBytes = new long[tasks.size()];
    this.startNanos = System.nanoTime();
    this.thread = new Thread(this::run, "quotaflow-demo-simulator");
    this.thread.setDaemon(true);
  }

  /** Creates the tasks' groups and starts ticking; {@code capacityCores} is the simulated node's CPUs. */
  public static WorkloadSimulator start(SimulatedCgroupTree tree, List<DemoTask> tasks, double capacityCores) {
    for (DemoTask task : tasks) {
      tree.addTask(task.name());
    }
    WorkloadSimulator simulator = new WorkloadSimulator(tree, tasks, capacityCores);
    for (int i = 0; i < tasks.size(); i++) {
      simulator.updateMemory(i);
    }
    simulator.thread.start();
    return simulator;
  }

  private void run() {
    long last = System.nanoTime();
    while (running) {
      try {
        Thread.sleep(TICK_MS);
        long now = System.nanoTime();
        tick(now - last, TimeUnit.NANOSECONDS.toMillis(now - startNanos));
        last = now;
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        if (running) {
          LOG.debug("simulated cgroup tree: tick skipped: {}", e.toString());
        }
      }
    }
  }

  /** Advances every task's usage by what it got of the last {@code elapsedNs}, and its memory by its progress. */
  void tick(long elapsedNs, long sinceStartMs) {
    List<CpuShareSplit.Claim> claims = new ArrayList<>();
    for (int i = 0; i < tasks.size(); i++) {
      DemoTask task = tasks.get(i);
      boolean runs = runs(task);
      if (runs) {
        progressNs[i] += elapsedNs;
      }
      claims.add(new CpuShareSplit.Claim(runs ? wantedCores(task, sinceStartMs) : 0,
          longOf(tree.read("cpu", task.name(), "cpu.shares"))));
    }
    double[] granted = CpuShareSplit.split(capacityCores, claims);
    for (int i = 0; i < tasks.size(); i++) {
      usageNs[i] += Math.round(granted[i] * elapsedNs);
      tree.update("cpuacct", tasks.get(i).name(), "cpuacct.usage", usageNs[i] + "\n");
      updateMemory(i);
    }
  }

  /** A stepping allocator's memory files at its progress, rewritten when they change. */
  private void updateMemory(int i) {
    MemorySchedule schedule = tasks.get(i).memory();
    if (schedule == null) {
      return;
    }
    long bytes = schedule.targetMbAt(TimeUnit.NANOSECONDS.toMillis(progressNs[i])) << 20;
    if (bytes != memoryBytes[i]) {
      memoryBytes[i] = bytes;
      maxMemoryBytes[i] = Math.max(maxMemoryBytes[i], bytes);
      tree.setMemory(tasks.get(i).name(), bytes, maxMemoryBytes[i]);
    }
  }

  /** False while the task is frozen; a freeze request is answered here, at once. */
  private boolean runs(DemoTask task) {
    String freezer = tree.read("freezer", task.name(), "freezer.state");
    if (freezer.startsWith("FREEZING")) {
      tree.update("freezer", task.name(), "freezer.state", "FROZEN\n");
      return false;
    }
    return !freezer.startsWith("FROZEN");
  }

  /** What the task's workload wants, held to one thread and its quota. */
  private double wantedCores(DemoTask task, long sinceStartMs) {
    long quotaUs = longOf(tree.read("cpu", task.name(), "cpu.cfs_quota_us"));
    long periodUs = longOf(tree.read("cpu", task.name(), "cpu.cfs_period_us"));
    return capped(task.shape().demandCores(sinceStartMs), quotaUs, periodUs);
  }

  /** A single-threaded workload's demand under a CFS quota ({@code -1}: none). */
  static double capped(double demandCores, long quotaUs, long periodUs) {
    double wanted = Math.min(1.0, demandCores);
    return quotaUs < 0 ? wanted : Math.min(wanted, (double) quotaUs / periodUs);
  }

  private static long longOf(String text) {
    return Long.parseLong(text.trim());
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.interrupt();
    thread.join(TimeUnit.SECONDS.toMillis(5));
  }
}
