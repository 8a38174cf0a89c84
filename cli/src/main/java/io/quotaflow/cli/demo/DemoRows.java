package io.quotaflow.cli.demo;

import java.util.List;

/** What the live table and the status page show at one moment: a row per task, and a row per pool. */
public record DemoRows(List<TaskRow> tasks, List<PoolRow> pools) {

  public static final DemoRows NONE = new DemoRows(List.of(), List.of());

  public DemoRows {
    tasks = List.copyOf(tasks);
    pools = List.copyOf(pools);
  }
}
