package io.quotaflow.cli.demo;

import java.util.List;

/**
 * One of the demo's tasks: its cgroup name, the workload it runs and the CPUs its spec asks for
 * ({@code ncpus} 0 makes it a zero-CPU task).
 */
public record DemoTask(String name, Workload.Shape shape, double ncpus) {

  /**
   * A steady task that keeps its shares, an idle one whose shares reclaim walks down, a bursty one
   * in between, and a weightless one that wants a whole core but is held to the zero-CPU quota.
   */
  public static final List<DemoTask> ALL = List.of(
      new DemoTask("demo-busy", Workload.Shape.BUSY, 1.0),
      new DemoTask("demo-idle", Workload.Shape.IDLE, 1.0),
      new DemoTask("demo-bursty", Workload.Shape.BURSTY, 1.0),
      new DemoTask("demo-zero", Workload.Shape.BUSY, 0.0));
}
