package io.quotaflow.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;

/**
 * CPU time of this JVM's Kafka Streams stream threads ({@code <client id>-StreamThread-<n>}), not
 * their producers' I/O threads: what a sample costs the app, whoever else shares the cores.
 */
final class StreamThreadsCpu {

  private StreamThreadsCpu() {}

  static long nanos() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null && isStreamThread(info.getThreadName())) {
        long cpu = threads.getThreadCpuTime(info.getThreadId());
        if (cpu > 0) {
          sum += cpu;
        }
      }
    }
    return sum;
  }

  static boolean isStreamThread(String name) {
    return name.contains("-StreamThread-") && !name.startsWith("kafka-");
  }
}
