package io.quotaflow.benchmarks;

import java.util.Locale;

/**
 * The two runs of {@code quotaflow bench cpu}. Throughput: commits every second and a feed that
 * keeps a fixed backlog ahead of what the reader has taken, so the reader is never idle and the
 * rate is what it sustains; the app's producers linger 100 ms, the value Kafka Streams itself
 * sets, since nothing is visible before the commit anyway. Latency: commits every 100 ms and
 * lingers 5 ms (the app's defaults) at a fixed offered rate, where end-to-end time, not capacity,
 * is the question.
 */
enum CpuRun {
  THROUGHPUT(1_000, 100),
  LATENCY(100, 5);

  final long commitIntervalMs;
  final int producerLingerMs;

  CpuRun(long commitIntervalMs, int producerLingerMs) {
    this.commitIntervalMs = commitIntervalMs;
    this.producerLingerMs = producerLingerMs;
  }

  String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  static CpuRun parse(String text) {
    for (CpuRun run : values()) {
      if (run.label().equals(text.trim().toLowerCase(Locale.ROOT))) {
        return run;
      }
    }
    throw new IllegalArgumentException("unknown run '" + text + "': expected throughput or latency");
  }
}
