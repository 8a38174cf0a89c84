package io.quotaflow.cgroups;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Not a test: prints the CPU time and heap allocation of sampling N task groups on this node's
 * real cgroups, the collector's budget being 500 groups at 1 Hz within 2 % of one core.
 * Creates {@code quotaflow-bench-<random>} under this process's own groups and removes it.
 * Command in {@code docs/cgroups.md}.
 *
 * <p>Arguments: {@code [groups=500] [rounds=300] [layout=auto] [periodMs=0]}. With a period the
 * rounds are paced as the collector paces them (caches go cold in between, which costs more than
 * a tight loop); with 0 they run back to back.
 */
public final class ReadCostBenchmark {

  public static void main(String[] args) throws Exception {
    int groups = args.length > 0 ? Integer.parseInt(args[0]) : 500;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 300;
    CgroupLayout layout = args.length > 2 ? CgroupLayout.parse(args[2]) : CgroupLayout.AUTO;
    long periodMs = args.length > 3 ? Long.parseLong(args[3]) : 0;
    String parent = "quotaflow-bench-" + UUID.randomUUID().toString().substring(0, 8);
    Cgroups cgroups = Cgroups.open(new CgroupConfig(Path.of("/sys/fs/cgroup"), layout,
        CgroupParent.underOwnGroup(parent)));
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    List<TaskId> tasks = new ArrayList<>();
    List<CgroupStatsReader> readers = new ArrayList<>();
    cgroups.createParent();
    try {
      for (int i = 0; i < groups; i++) {
        TaskId task = TaskId.of("bench-" + i);
        tasks.add(task);
        cgroups.create(task);
        readers.add(cgroups.openReader(task));
      }
      long sink = 0;
      for (int warm = 0; warm < 50; warm++) {
        for (CgroupStatsReader reader : readers) {
          sink += reader.read().cpuUsageUsec();
        }
      }
      long thread = Thread.currentThread().getId();
      long cpuBefore = threads.getCurrentThreadCpuTime();
      long allocatedBefore = threads.getThreadAllocatedBytes(thread);
      long wallInRounds = 0;
      for (int round = 0; round < rounds; round++) {
        long roundStart = System.nanoTime();
        for (CgroupStatsReader reader : readers) {
          sink += reader.read().cpuUsageUsec();
        }
        wallInRounds += System.nanoTime() - roundStart;
        if (periodMs > 0) {
          Thread.sleep(periodMs);
        }
      }
      double cpuMsPerRound = (threads.getCurrentThreadCpuTime() - cpuBefore) / 1e6 / rounds;
      double wallMsPerRound = wallInRounds / 1e6 / rounds;
      double bytesPerRead =
          (double) (threads.getThreadAllocatedBytes(thread) - allocatedBefore) / rounds / groups;
      System.out.printf("%s: %d groups x %d rounds every %d ms: %.2f ms CPU per round (%.2f %% of one core at 1 Hz),"
              + " %.2f ms wall, %.1f us CPU and %.0f bytes allocated per group read (sink %d)%n",
          cgroups.version(), groups, rounds, periodMs, cpuMsPerRound, cpuMsPerRound / 10.0, wallMsPerRound,
          cpuMsPerRound * 1000 / groups, bytesPerRead, sink % 10);
    } finally {
      for (CgroupStatsReader reader : readers) {
        reader.close();
      }
      for (TaskId task : tasks) {
        cgroups.remove(task);
      }
      cgroups.removeParent();
    }
  }
}
