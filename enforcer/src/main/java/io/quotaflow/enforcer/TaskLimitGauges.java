package io.quotaflow.enforcer;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.quotaflow.cgroups.TaskId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code quotaflow_enforcer_task_limit_cpu{task, limit="soft|effective"}}: one series per limit of
 * each task with a current CPU decision on this node, so the series of a withdrawn task go with it
 * (no leak across the node's task churn; cardinality is the node's tasks times two).
 */
final class TaskLimitGauges implements AutoCloseable {

  static final String METER = "quotaflow.enforcer.task.limit.cpu";

  private final MultiGauge gauge;
  /** Replaced whole by the enforcer's thread, read by the scrape's: the rows look their value up here. */
  private volatile Map<TaskId, CpuLimits> shown = Map.of();

  TaskLimitGauges(MeterRegistry registry) {
    gauge = MultiGauge.builder(METER)
        .description("The soft and effective CPU limits of the latest decision of each task of this node, cores")
        .register(registry);
  }

  /** Shows exactly these tasks: series of tasks not in {@code limits} are removed. */
  void show(Map<TaskId, CpuLimits> limits) {
    if (limits.equals(shown)) {
      return; // most records change a value, not the set of tasks; the rows read the new map anyway
    }
    boolean sameTasks = limits.keySet().equals(shown.keySet());
    shown = Map.copyOf(limits);
    if (sameTasks) {
      return;
    }
    List<MultiGauge.Row<?>> rows = new ArrayList<>();
    for (TaskId task : limits.keySet()) {
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
    shown = Map.of();
    gauge.register(List.of(), false);
  }
}
