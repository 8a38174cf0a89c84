package io.quotaflow.benchmarks;

import io.quotaflow.streams.topology.StreamsConfigFactory;
import java.util.Locale;

/**
 * The two runs of {@code quotaflow bench cpu}. Throughput: commits every second and a feed that
 * keeps a fixed backlog ahead of what the reader has taken, so the reader is never idle and the
 * rate is what it sustains; the app's producers linger 100 ms, the value Kafka Streams itself
 * sets, since nothing is visible before the commit anyway. Latency: the app's own commit interval
 * and its 5 ms linger at a fixed offered rate, where end-to-end time, not capacity, is the question.
 */
enum CpuRun {
  THROUGHPUT(1_000, 100),
  LATENCY(StreamsConfigFactory.DEFAULT_COMMIT_INTERVAL_MS, 5);

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
