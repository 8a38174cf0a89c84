package io.quotaflow.cli.demo;

import java.util.List;
import java.util.Locale;

/**
 * Renders the live table as fixed-width text: a pure function of the rows, shared by the terminal and
 * the status page. Tasks first, then their pools.
 */
public final class DemoTable {

  static final String TASK_FORMAT = "%-14s %-8s %6s %15s %7s %6s %8s %8s %5s  %s";
  static final List<String> COLUMNS = List.of("task", "pool", "usage", "soft/effective", "shares", "quota", "memory",
      "gate", "queue", "last action");
  static final String POOL_FORMAT = "%-14s %-8s %6s %6s %7s %11s %9s %12s  %s";
  static final List<String> POOL_COLUMNS = List.of("pool", "type", "flow", "burst", "demand", "fair share", "integral",
      "volume", "burst lasts");

  private DemoTable() {}

  /** One header line and one line per task, a blank line, then the same for the pools; each line ends in a newline. */
  public static String render(DemoRows rows) {
    StringBuilder out = new StringBuilder();
    out.append(line(TASK_FORMAT, COLUMNS)).append('\n');
    for (TaskRow row : rows.tasks()) {
      out.append(line(TASK_FORMAT, cells(row))).append('\n');
    }
    if (!rows.pools().isEmpty()) {
      out.append('\n').append(line(POOL_FORMAT, POOL_COLUMNS)).append('\n');
      for (PoolRow row : rows.pools()) {
        out.append(line(POOL_FORMAT, cells(row))).append('\n');
      }
    }
    return out.toString();
  }

  /** The pool row's cells as the table shows them ("-" for unknown or not applying). */
  public static List<String> cells(PoolRow row) {
    return List.of(row.pool(), row.guaranteeType(), cores(row.flowCpu()), cores(row.burstCpu()), cores(row.demandCpu()),
        cores(row.fairShareCpu()), cores(row.integralCpu()),
        row.volumeCpuSeconds() == null ? "-" : String.format(Locale.ROOT, "%.1f cpu·s", row.volumeCpuSeconds()),
        row.burstLeftSeconds() == null ? "-" : String.format(Locale.ROOT, "%.0fs", row.burstLeftSeconds()));
  }

  /** The task row's cells as the table shows them ("-" for unknown). */
  public static List<String> cells(TaskRow row) {
    String limits = row.softLimitCpu() == null ? "-"
        : cores(row.softLimitCpu()) + " / " + cores(row.effectiveLimitCpu());
    String quota = row.quotaCores() == null ? (row.shares() == null ? "-" : "none") : cores(row.quotaCores());
    String action = row.lastAction() == null ? "-"
        : row.lastAction() + (row.lastActionAgeMs() == null ? "" : " " + age(row.lastActionAgeMs()) + " ago");
    return List.of(row.task(), row.pool(), cores(row.usageCores()), limits,
        row.shares() == null ? "-" : Long.toString(row.shares()), quota, mebibytes(row.memoryBytes()),
        row.gateRole() == null ? "-" : row.gateRole(),
        row.queuePosition() == null ? "-" : Integer.toString(row.queuePosition()), action);
  }

  private static String line(String format, List<String> cells) {
    return String.format(Locale.ROOT, format, cells.toArray()).stripTrailing();
  }

  static String cores(Double value) {
    return value == null ? "-" : String.format(Locale.ROOT, "%.2f", value);
  }

  static String mebibytes(Long bytes) {
    return bytes == null ? "-" : (bytes + (1 << 19)) / (1 << 20) + " MiB";
  }

  static String age(long ms) {
    long seconds = Math.max(0, ms) / 1000;
    return seconds < 120 ? seconds + "s" : seconds / 60 + "m";
  }
}
