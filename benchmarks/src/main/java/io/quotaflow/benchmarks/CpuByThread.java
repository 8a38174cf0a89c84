package io.quotaflow.benchmarks;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A window's CPU per sample, split by who spent it in this one JVM: the stream threads, and of the rest the broker,
 * the producers' I/O threads, RocksDB's own threads, GC, the JIT, the feed. The stream threads' CPU alone hides what
 * grows with the tasks: at 100,000 tasks in {@code bench cpu} two thirds of the growth over 5,000 was in the broker,
 * the producers, RocksDB's flushes and compactions and GC (docs/benchmarks.md, <em>Where the gap lies</em>).
 *
 * @param microsPerSample by group, in the order printed; "rest" is the process's CPU in none of them
 * @param cores the process's CPU over the window, in cores
 */
record CpuByThread(Map<String, Double> microsPerSample, double cores) {

  /**
   * Kernel thread names (15 characters, as {@link ThreadCpu} sums them) by prefix. Stream threads are named after the
   * application id, so they are not found here but counted by {@link StreamThreadsCpu}.
   */
  private static final Map<String, Predicate<String>> GROUPS = groups();

  CpuByThread {
    microsPerSample = Collections.unmodifiableMap(new LinkedHashMap<>(microsPerSample));
  }

  /**
   * @param threadNanos each live thread name's CPU over the window ({@link ThreadCpu#byName} at its end minus at its
   *     start), the stream threads' included
   * @param streamNanos the stream threads' CPU over the window ({@link StreamThreadsCpu})
   */
  static CpuByThread of(Map<String, Long> threadNanos, long streamNanos, long samples, double seconds) {
    if (samples <= 0 || seconds <= 0) {
      throw new IllegalArgumentException("a window needs samples and time, not " + samples + " in " + seconds + " s");
    }
    Map<String, Double> micros = new LinkedHashMap<>();
    micros.put("stream threads", streamNanos / 1e3 / samples);
    long total = 0;
    long grouped = streamNanos;
    for (Map.Entry<String, Predicate<String>> group : GROUPS.entrySet()) {
      long nanos = 0;
      for (Map.Entry<String, Long> thread : threadNanos.entrySet()) {
        if (group.getValue().test(thread.getKey())) {
          nanos += thread.getValue();
        }
      }
      micros.put(group.getKey(), nanos / 1e3 / samples);
      grouped += nanos;
    }
    for (long nanos : threadNanos.values()) {
      total += nanos;
    }
    micros.put("rest", Math.max(0, total - grouped) / 1e3 / samples);
    return new CpuByThread(micros, total / 1e9 / seconds);
  }

  /** The thread names' CPU over a window: {@code end} minus {@code start}; a thread new in the window counts from 0. */
  static Map<String, Long> difference(Map<String, Long> start, Map<String, Long> end) {
    Map<String, Long> spent = new LinkedHashMap<>();
    end.forEach((name, nanos) -> spent.put(name, Math.max(0, nanos - start.getOrDefault(name, 0L))));
    return spent;
  }

  double totalMicrosPerSample() {
    return microsPerSample.values().stream().mapToDouble(Double::doubleValue).sum();
  }

  /** One line: each group's µs per sample, then the total and the cores it took. */
  String line() {
    StringBuilder line = new StringBuilder("CPU per sample by thread: ");
    microsPerSample.forEach((group, micros) -> line.append(group).append(' ')
        .append(String.format(Locale.ROOT, "%.2f", micros)).append(", "));
    return line.append(String.format(Locale.ROOT, "all %.1f µs (%.2f cores)", totalMicrosPerSample(), cores))
        .toString();
  }

  private static Map<String, Predicate<String>> groups() {
    Map<String, Predicate<String>> groups = new LinkedHashMap<>();
    groups.put("broker", name -> name.startsWith("data-plane-kafk"));
    groups.put("producers' I/O", ThreadCpu::isProducerIo);
    groups.put("RocksDB", name -> name.startsWith("rocksdb:"));
    groups.put("GC", ThreadCpu::isGc);
    groups.put("JIT", ThreadCpu::isJit);
    groups.put("feed", name -> name.startsWith("bench-feed-"));
    return groups;
  }
}
