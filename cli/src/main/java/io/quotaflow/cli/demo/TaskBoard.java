package io.quotaflow.cli.demo;

import io.quotaflow.cgroups.CgroupCpuRead;
import io.quotaflow.cgroups.CgroupStats;
import io.quotaflow.cgroups.CgroupStatsReader;
import io.quotaflow.cgroups.Cgroups;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.GateTable;
import io.quotaflow.schemas.avro.PoolConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Builds the live table's rows. Per task: usage from each group's CPU counter between two calls, memory,
 * shares and quota read back from the cgroup, limits and the last action from {@link DecisionWatch}, and
 * each gated task's place at the peak gate from the node's gate table: its role, and a waiting task's
 * place in the queue. Per pool: its config and its latest {@code pool-state} from the watch.
 * Called from one thread.
 */
public final class TaskBoard implements AutoCloseable {

  private record Reading(long usageUsec, long atNanos) {}

  /** One read of a group's counters: CPU burnt since the last, and memory now. */
  private record Now(Double usageCores, Long memoryBytes) {
    static final Now UNKNOWN = new Now(null, null);
  }

  private final Cgroups cgroups;
  private final List<DemoTask> tasks;
  private final DecisionWatch watch;
  private final Map<String, CgroupStatsReader> readers = new HashMap<>();
  private final Map<String, Reading> previous = new HashMap<>();
  private final List<PoolConfig> pools;

  /** {@code pools}: the pools shown. */
  public TaskBoard(Cgroups cgroups, List<DemoTask> tasks, List<PoolConfig> pools, DecisionWatch watch) {
    this.cgroups = cgroups;
    this.tasks = List.copyOf(tasks);
    this.pools = List.copyOf(pools);
    this.watch = watch;
  }

  /** One row per task and per pool, in the order given; what cannot be read is left unknown. */
  public DemoRows rows(long nowMs) {
    List<PoolRow> poolRows = new ArrayList<>();
    for (PoolConfig pool : pools) {
      poolRows.add(PoolRow.of(pool, watch.pool(pool.getPool()).orElse(null)));
    }
    return new DemoRows(taskRows(nowMs), poolRows);
  }

  private List<TaskRow> taskRows(long nowMs) {
    List<TaskRow> rows = new ArrayList<>();
    GateTable gate = watch.gateTable().orElse(null);
    for (DemoTask task : tasks) {
      Now now = read(task.name());
      CgroupCpuRead cpu = cpuValues(task.name());
      CpuDecision decision = watch.decision(task.name()).orElse(null);
      EnforcementResult result = watch.result(task.name()).orElse(null);
      int queuePosition = gate == null ? -1 : gate.getQueue().indexOf(task.name());
      rows.add(new TaskRow(task.name(), task.pool(), now.usageCores(),
          decision == null ? null : decision.getSoftLimitCpu(),
          decision == null ? null : decision.getEffectiveLimitCpu(),
          cpu == null ? null : cpu.sharesEquivalent(),
          cpu == null ? null : cpu.quotaCores(),
          now.memoryBytes(),
          task.memory() == null ? null : role(gate, task.name()),
          queuePosition < 0 ? null : queuePosition,
          result == null ? null : result.getStatus().name(),
          result == null ? null : nowMs - result.getTsMs()));
    }
    return rows;
  }

  /** A gated task's role as the gate table says: running, holding or waiting; running before it is in a table. */
  private static String role(GateTable gate, String task) {
    if (gate == null) {
      return "running";
    }
    return gate.getTasks().stream().filter(row -> row.getTask().equals(task)).findFirst()
        .map(row -> row.getRole().name().toLowerCase(Locale.ROOT)).orElse("running");
  }

  private Now read(String task) {
    try {
      CgroupStatsReader reader = readers.get(task);
      if (reader == null) {
        reader = cgroups.openReader(TaskId.of(task));
        readers.put(task, reader);
      }
      CgroupStats stats = reader.read();
      Long memory = stats.memoryAnonBytes() != null ? stats.memoryAnonBytes() : stats.memoryBytes();
      Reading now = new Reading(stats.cpuUsageUsec(), System.nanoTime());
      Reading before = previous.put(task, now);
      if (before == null || now.atNanos() <= before.atNanos()) {
        return new Now(null, memory);
      }
      return new Now(Math.max(0, now.usageUsec() - before.usageUsec()) * 1000.0 / (now.atNanos() - before.atNanos()),
          memory);
    } catch (IOException | RuntimeException e) {
      return Now.UNKNOWN;
    }
  }

  private CgroupCpuRead cpuValues(String task) {
    try {
      return cgroups.readCpu(TaskId.of(task));
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  @Override
  public void close() {
    for (CgroupStatsReader reader : readers.values()) {
      try {
        reader.close();
      } catch (IOException e) {
        // the group may be gone already; nothing to release then
      }
    }
    readers.clear();
  }
}
