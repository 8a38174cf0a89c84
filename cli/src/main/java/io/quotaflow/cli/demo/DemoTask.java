package io.quotaflow.cli.demo;

import java.time.Duration;
import java.util.List;

/**
 * One of the demo's tasks: its cgroup name, the CPU its workload wants, the CPUs its spec asks for
 * ({@code ncpus} 0 makes it a zero-CPU task), the pool it draws on, and for a stepping allocator the
 * memory it holds over time (null for the CPU-only tasks), whose normal and peak its spec declares.
 */
public record DemoTask(String name, Workload.Shape shape, double ncpus, String pool, MemorySchedule memory) {

  /** A CPU-only task. */
  public DemoTask(String name, Workload.Shape shape, double ncpus, String pool) {
    this(name, shape, ncpus, pool, null);
  }

  /** A stepping allocator of the relaxed pool: a tenth of a core, and its memory schedule. */
  public static DemoTask allocator(String name, MemorySchedule memory) {
    return new DemoTask(name, Workload.Shape.LIGHT, 1.0, DemoSpecs.RELAXED_POOL, memory);
  }

  /** The command its process runs (real mode). */
  public List<String> command() {
    return memory == null ? Workload.command(shape) : Workload.command(memory);
  }

  /**
   * 64 MiB normal, 160 MiB peak, up and down in steps of 32 MiB a second, 11 s at the peak. The
   * climbs start 25, 30 and 35 s after the workloads do (the pipeline is ready after about 20 s), so
   * the first one takes the node's single peak slot, the second and third cross 1.1 × normal
   * while it holds it and wait frozen, queued in that order, and are thawed one after the other as
   * the slot frees: all within the first minute. Schedules run on the tasks' own progress, so a
   * thawed task resumes its climb; later cycles meet in other orders.
   */
  static MemorySchedule peaks(Duration rest) {
    return new MemorySchedule(64, 160, 32, rest, Duration.ofSeconds(1), Duration.ofSeconds(10), 0);
  }

  /**
   * A steady task that keeps its shares, an idle one whose shares reclaim walks down, a bursty one
   * alone in the burst pool, a weightless one that wants a whole core but is held to the zero-CPU
   * quota, and three stepping allocators that meet at the memory peak gate.
   */
  public static final List<DemoTask> ALL = List.of(
      new DemoTask("demo-busy", Workload.Shape.BUSY, 1.0, DemoSpecs.RELAXED_POOL),
      new DemoTask("demo-idle", Workload.Shape.IDLE, 1.0, DemoSpecs.RELAXED_POOL),
      new DemoTask("demo-bursty", Workload.Shape.BURSTY, 1.0, DemoSpecs.BURST_POOL),
      new DemoTask("demo-zero", Workload.Shape.BUSY, 0.0, DemoSpecs.RELAXED_POOL),
      allocator("demo-peak-a", peaks(Duration.ofSeconds(25))),
      allocator("demo-peak-b", peaks(Duration.ofSeconds(30))),
      allocator("demo-peak-c", peaks(Duration.ofSeconds(35))));
}
