package io.quotaflow.testharness;

import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.JobCpuMonitorConfig;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One minute of input that exercises every stateful part of the streams app, for the tests that
 * compare a restarted or killed app with one that ran through: four tasks per node of idle, busy and
 * alternating CPU (reclaim moves their limits); tasks 1 and 2 declare a normal of 256 MB and reach
 * overlapping peaks, so the gate freezes and thaws; task 0 (operation "learn", no declared normal)
 * finishes at 20 s and teaches its operation a profile of 100 MB, by which task 3 (same operation,
 * started after it) is gated when it peaks while task 1 holds the slot. Seeded: the same minute
 * every time.
 */
public final class GatingMinute {
  public static final int TASKS = 4;
  public static final int SECONDS = 60;
  private static final long MB = 1L << 20;

  private GatingMinute() {}

  /** The samples of {@code nodes} nodes ({@code node-N}, {@code task-T}), one per task and second from {@code startMs}, in time order. */
  public static List<CgroupSample> samples(int nodes, long startMs) {
    Random random = new Random(7);
    List<CgroupSample> samples = new ArrayList<>();
    long[][] usage = new long[nodes][TASKS];
    for (int s = 0; s < SECONDS; s++) {
      for (int n = 0; n < nodes; n++) {
        for (int t = 0; t < TASKS; t++) {
          if ((t == 0 && s > 20) || (t == 3 && s <= 20)) {
            continue;
          }
          double cores = t == 0 ? 0.05 : t == 1 ? 1.9 : t == 2 ? ((s / 15) % 2 == 0 ? 0.1 : 1.8) : 0.5;
          usage[n][t] += Math.round(cores * 1_000_000 * (0.95 + 0.1 * random.nextDouble()));
          long anonBytes = switch (t) {
            case 0 -> 100 * MB;
            case 1 -> (s >= 10 && s < 25) || (s >= 40 && s < 50) ? 320 * MB : 240 * MB;
            case 2 -> (s / 15) % 2 == 1 ? 320 * MB : 240 * MB;
            default -> s < 42 ? 100 * MB : 200 * MB;
          };
          samples.add(CgroupSample.newBuilder().setNode("node-" + n).setTask("task-" + t).setTsMs(startMs + s * 1000L)
              .setCpuUsageUsec(usage[n][t]).setMemoryBytes(anonBytes + 64 * MB).setMemoryAnonBytes(anonBytes)
              .setState(t == 0 && s == 20 ? SampleState.GONE : SampleState.RUNNING).setSeq(s).build());
        }
      }
    }
    return samples;
  }

  /** Every task's spec: 2 CPUs, reclaim on; tasks 0 and 3 of operation "learn" without a declared normal. */
  public static List<TaskSpec> specs(int nodes) {
    List<TaskSpec> specs = new ArrayList<>();
    for (int n = 0; n < nodes; n++) {
      for (int t = 0; t < TASKS; t++) {
        boolean learned = t == 0 || t == 3;
        specs.add(TaskSpec.newBuilder().setNode("node-" + n).setTask("task-" + t).setNcpus(2)
            .setOperation(learned ? "learn" : "declared").setMemoryNormalBytes(learned ? null : 256 * MB)
            .setJobCpuMonitor(JobCpuMonitorConfig.newBuilder().setEnableCpuReclaim(true).build()).build());
      }
    }
    return specs;
  }
}
