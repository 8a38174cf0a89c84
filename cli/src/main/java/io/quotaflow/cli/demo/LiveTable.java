package io.quotaflow.cli.demo;

import io.quotaflow.process.ProcessLifecycle;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The demo's foreground loop: fresh rows every second (the status page shows the newest), the
 * table printed every {@code printEvery} — on a terminal redrawn in place under a fixed header,
 * otherwise as plain blocks headed by the seconds since start, which logs and tests can read.
 */
public final class LiveTable {

  static final Duration ROW_PERIOD = Duration.ofSeconds(1);
  private static final String CLEAR_SCREEN = "\u001b[H\u001b[2J";

  private final PrintWriter out;
  private final TaskBoard board;
  private final Duration printEvery;
  private final long startedNanos;
  private volatile DemoRows rows = DemoRows.NONE;

  public LiveTable(PrintWriter out, TaskBoard board, Duration printEvery, long startedNanos) {
    this.out = out;
    this.board = board;
    this.printEvery = printEvery;
    this.startedNanos = startedNanos;
  }

  /** The newest rows, for the status page. */
  public DemoRows rows() {
    return rows;
  }

  /**
   * Runs until a stop is requested or, when given, {@code stopAfter} since start has passed.
   *
   * @param terminalHeader lines shown above the table when redrawing in place; null prints plain blocks
   */
  public void run(String terminalHeader, ProcessLifecycle stop, Duration stopAfter) throws InterruptedException {
    long nextPrint = System.nanoTime();
    while (true) {
      rows = board.rows(System.currentTimeMillis());
      long now = System.nanoTime();
      if (now >= nextPrint) {
        print(terminalHeader, now);
        nextPrint = now + printEvery.toNanos();
      }
      long waitMs = ROW_PERIOD.toMillis();
      if (stopAfter != null) {
        long leftMs = TimeUnit.NANOSECONDS.toMillis(startedNanos + stopAfter.toNanos() - System.nanoTime());
        if (leftMs <= 0) {
          return;
        }
        waitMs = Math.min(waitMs, leftMs);
      }
      if (stop.awaitStopRequest(Duration.ofMillis(waitMs))) {
        return;
      }
    }
  }

  private void print(String terminalHeader, long nowNanos) {
    String table = DemoTable.render(rows);
    if (terminalHeader != null) {
      out.print(CLEAR_SCREEN + terminalHeader + table);
    } else {
      out.printf("--- %d s%n%s", TimeUnit.NANOSECONDS.toSeconds(nowNanos - startedNanos), table);
    }
    out.flush();
  }
}
