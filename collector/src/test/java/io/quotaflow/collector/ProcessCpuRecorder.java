package io.quotaflow.collector;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * An independent record of what processes burn: every few milliseconds, the wall clock and each
 * process's run time from {@code /proc/<pid>/schedstat} (nanoseconds, exact). The collector's
 * counters are then compared with this record at the collector's own sample times.
 */
final class ProcessCpuRecorder implements AutoCloseable {

  private static final long PAUSE_NANOS = 5_000_000;

  /** Wall time in epoch microseconds, and the process's run time in nanoseconds then. */
  private record Point(long epochMicros, long cpuNanos) {}

  private final Map<Long, List<Point>> series = new HashMap<>();
  private final Thread thread;
  private volatile boolean running = true;

  ProcessCpuRecorder(List<Long> pids) {
    pids.forEach(pid -> series.put(pid, new ArrayList<>()));
    thread = new Thread(this::record, "process-cpu-recorder");
    thread.setDaemon(true);
    thread.start();
  }

  private void record() {
    while (running) {
      for (Map.Entry<Long, List<Point>> entry : series.entrySet()) {
        long cpu = schedstatNanos(entry.getKey());
        long now = epochMicros();
        synchronized (this) {
          entry.getValue().add(new Point(now, cpu));
        }
      }
      LockSupport.parkNanos(PAUSE_NANOS); // the recording's resolution, not a wait for anything
    }
  }

  /** The CPU seconds {@code pid} burnt between two epoch milliseconds, interpolated from the record. */
  synchronized double cpuSecondsBetween(long pid, long fromMs, long toMs) {
    return (cpuNanosAt(pid, toMs * 1000) - cpuNanosAt(pid, fromMs * 1000)) / 1e9;
  }

  private double cpuNanosAt(long pid, long epochMicros) {
    List<Point> points = series.get(pid);
    for (int i = 1; i < points.size(); i++) {
      Point a = points.get(i - 1);
      Point b = points.get(i);
      if (a.epochMicros() <= epochMicros && epochMicros <= b.epochMicros()) {
        double f = b.epochMicros() == a.epochMicros() ? 0 : (double) (epochMicros - a.epochMicros()) / (b.epochMicros() - a.epochMicros());
        return a.cpuNanos() + f * (b.cpuNanos() - a.cpuNanos());
      }
    }
    throw new IllegalArgumentException("time " + epochMicros + " µs is outside the record of pid " + pid
        + " (" + points.get(0).epochMicros() + " .. " + points.get(points.size() - 1).epochMicros() + ")");
  }

  private static long schedstatNanos(long pid) {
    try {
      String text = Files.readString(Path.of("/proc", Long.toString(pid), "schedstat"), StandardCharsets.US_ASCII);
      return Long.parseLong(text.trim().split("\\s+")[0]);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long epochMicros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.join();
  }
}
