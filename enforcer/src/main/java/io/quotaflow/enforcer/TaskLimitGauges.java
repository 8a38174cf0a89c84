package io.quotaflow.enforcer;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.quotaflow.cgroups.TaskId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code quotaflow_enforcer_task_limit_cpu{task, limit="soft|effective"}}: one series per limit of
 * each task with a current CPU decision on this node, so the series of a withdrawn task go with it
 * (no leak across the node's task churn; cardinality is the node's tasks times two).
 */
final class TaskLimitGauges implements AutoCloseable {

  static final String METER = "quotaflow.enforcer.task.limit.cpu";

  private final MultiGauge gauge;
  /**
   * Written by the enforcer's thread one task at a time, read by the scrape's: the rows look their
   * value up here. Per decision the work is one entry, not the node's whole map: copying and
   * comparing every task's limits on every record cost the enforcer most of its CPU time at 500
   * tasks (docs/benchmarks.md, "Enforcer apply rate").
   */
  private final Map<TaskId, CpuLimits> shown = new ConcurrentHashMap<>();

  TaskLimitGauges(MeterRegistry registry) {
    gauge = MultiGauge.builder(METER)
        .description("The soft and effective CPU limits of the latest decision of each task of this node, cores")
        .register(registry);
  }

  /** Shows exactly these tasks: series of tasks not in {@code limits} are removed. */
  void show(Map<TaskId, CpuLimits> limits) {
    boolean sameTasks = limits.keySet().equals(shown.keySet());
    shown.keySet().retainAll(limits.keySet());
    shown.putAll(limits);
    if (!sameTasks) {
      registerRows();
    }
  }

  /** A task's latest CPU decision: its value changes in place; only a new task registers rows. */
  void show(TaskId task, CpuLimits limits) {
    if (shown.put(task, limits) == null) {
      registerRows();
    }
  }

  /** A task's CPU decision was withdrawn: its series go. */
  void remove(TaskId task) {
    if (shown.remove(task) != null) {
      registerRows();
    }
  }

  /** One row per limit of each task shown; rows of tasks no longer shown are removed. */
  private void registerRows() {
    List<MultiGauge.Row<?>> rows = new ArrayList<>();
    for (TaskId task : shown.keySet()) {
      rows.add(MultiGauge.Row.of(Tags.of("task", task.value(), "limit", "soft"), this, g -> g.value(task, true)));
      rows.add(MultiGauge.Row.of(Tags.of("task", task.value(), "limit", "effective"), this, g -> g.value(task, false)));
    }
    gauge.register(rows, false);
  }

  private double value(TaskId task, boolean soft) {
    CpuLimits limits = shown.get(task);
    if (limits == null) {
      return Double.NaN; // scraped between the map's replacement and the rows' removal
    }
    return soft ? limits.soft() : limits.effective();
  }

  @Override
  public void close() {
    shown.clear();
    gauge.register(List.of(), false);
  }
}
