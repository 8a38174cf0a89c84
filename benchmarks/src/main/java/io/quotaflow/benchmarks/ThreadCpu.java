package io.quotaflow.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time of another process's live threads, summed by thread name, from
 * {@code /proc/<pid>/task/<tid>/schedstat} (nanoseconds the thread ran, exact, unlike the 10 ms
 * ticks of {@code stat}). Numbered pools ("GC Thread#3") are summed as one name.
 */
final class ThreadCpu {

  private ThreadCpu() {}

  /** A producer's I/O thread ({@code kafka-producer-network-thread | …}), as the kernel names it. */
  static boolean isProducerIo(String name) {
    return name.startsWith("kafka-producer-");
  }

  /** A HotSpot compiler thread. */
  static boolean isJit(String name) {
    return name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre");
  }

  /** A G1 worker, refinement, marking or service thread. */
  static boolean isGc(String name) {
    return name.startsWith("GC Thread") || name.startsWith("G1 ");
  }

  static Map<String, Long> byName(long pid) throws IOException {
    Map<String, Long> nanos = new TreeMap<>();
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : tasks) {
        try {
          String name = Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).trim().replaceAll("#?\\d+$", "");
          long ran = Long.parseLong(Files.readString(task.resolve("schedstat"), StandardCharsets.US_ASCII).trim().split("\\s+")[0]);
          nanos.merge(name.isEmpty() ? "?" : name, ran, Long::sum);
        } catch (java.nio.file.NoSuchFileException exited) {
          // the thread ended while listing
        }
      }
    }
    return nanos;
  }
}
