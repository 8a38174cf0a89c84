package io.quotaflow.cli.demo;

import java.util.List;
import java.util.Locale;

/** Renders the live table as fixed-width text: a pure function of the rows, shared by the terminal and the status page. */
public final class DemoTable {

  static final String HEADER_FORMAT = "%-14s %6s %15s %7s %6s %8s %8s %5s  %s";
  static final List<String> COLUMNS = List.of("task", "usage", "soft/effective", "shares", "quota", "memory", "gate",
      "queue", "last action");

  private DemoTable() {}

  /** One header line and one line per row, each ending in a newline. */
  public static String render(List<TaskRow> rows) {
    StringBuilder out = new StringBuilder();
    out.append(line(COLUMNS)).append('\n');
    for (TaskRow row : rows) {
      out.append(line(cells(row))).append('\n');
    }
    return out.toString();
  }

  /** The row's cells as the table shows them ("-" for unknown). */
  public static List<String> cells(TaskRow row) {
    String limits = row.softLimitCpu() == null ? "-"
        : cores(row.softLimitCpu()) + " / " + cores(row.effectiveLimitCpu());
    String quota = row.quotaCores() == null ? (row.shares() == null ? "-" : "none") : cores(row.quotaCores());
    String action = row.lastAction() == null ? "-"
        : row.lastAction() + (row.lastActionAgeMs() == null ? "" : " " + age(row.lastActionAgeMs()) + " ago");
    return List.of(row.task(), cores(row.usageCores()), limits,
        row.shares() == null ? "-" : Long.toString(row.shares()), quota, mebibytes(row.memoryBytes()),
        row.gateRole() == null ? "-" : row.gateRole(),
        row.queuePosition() == null ? "-" : Integer.toString(row.queuePosition()), action);
  }

  private static String line(List<String> cells) {
    return String.format(Locale.ROOT, HEADER_FORMAT, cells.toArray()).stripTrailing();
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
