package io.quotaflow.benchmarks.engines;

import io.quotaflow.streams.engine.memory.GatingMode;
import io.quotaflow.streams.engine.memory.MemorySample;
import io.quotaflow.streams.engine.memory.PeakGate;
import io.quotaflow.streams.engine.memory.PeakGateConfig;
import io.quotaflow.streams.engine.memory.ProfileLookup;
import io.quotaflow.streams.engine.memory.TaskMemorySpec;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The memory peak gate of one node, the calls PeakGateProcessor makes for every sample:
 * {@code new MemorySample(...)}, {@link PeakGate#onSample} and {@link PeakGate#drainChanges} (what
 * the processor writes back to its store). 50 non-interactive tasks on a 192 GiB node, each with a
 * declared normal of 2-4 GiB and a peak of 3x its normal, sampled round-robin once a second. Each
 * task's usage cycles every 600 samples: baseline with noise, then a 70-sample peak (ramp, hold,
 * ramp) starting at its own offset, so peaks overlap and the gate freezes, queues and thaws. COUNT
 * with 2 slots, or BUDGET with 16 GiB headroom. The Avro mapping around the calls is not measured.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class PeakGateBenchmark {

  static final int TASKS = 50;
  private static final long GIB = 1L << 30;
  /** Baselines sum to about 150 GiB and about six tasks peak at once: BUDGET queues too. */
  private static final long NODE_MEMORY_BYTES = 192 * GIB;
  private static final long SAMPLE_PERIOD_MS = 1_000;
  private static final long START_TS_MS = 1_700_000_000_000L;
  private static final int CYCLE_SAMPLES = 600;
  private static final int RAMP_SAMPLES = 20;
  private static final int HOLD_SAMPLES = 30;

  @Param({"COUNT", "BUDGET"})
  public GatingMode mode;

  private PeakGate gate;
  private String[] taskIds;
  /** Usage per task and sample in the cycle, bytes. */
  private long[][] usageBytes;
  private int task;
  private long round;

  @Setup
  public void setUp() {
    SplittableRandom random = new SplittableRandom(20);
    PeakGateConfig config = PeakGateConfig.defaults(NODE_MEMORY_BYTES).withMode(mode).withMaxConcurrentPeaks(2)
        .withHeadroomBytes(16 * GIB);
    gate = new PeakGate("node-1", config, ProfileLookup.NONE);
    taskIds = new String[TASKS];
    usageBytes = new long[TASKS][CYCLE_SAMPLES];
    for (int i = 0; i < TASKS; i++) {
      taskIds[i] = "task-" + i;
      long normal = (2 + random.nextInt(3)) * GIB;
      long peak = 3 * normal;
      gate.onSpec(TaskMemorySpec.batch(taskIds[i], "op-" + (i % 5), normal, peak), START_TS_MS);
      int peakStart = random.nextInt(CYCLE_SAMPLES - 2 * RAMP_SAMPLES - HOLD_SAMPLES);
      for (int s = 0; s < CYCLE_SAMPLES; s++) {
        long noise = (long) (normal * random.nextDouble(-0.03, 0.03));
        usageBytes[i][s] = normal + noise + peakPart(s - peakStart, peak - normal);
      }
    }
    gate.drainChanges();
  }

  /** Above the baseline at offset {@code s} into a peak: ramp up, hold, ramp down. */
  private static long peakPart(int s, long extraBytes) {
    if (s < 0 || s >= 2 * RAMP_SAMPLES + HOLD_SAMPLES) {
      return 0;
    }
    if (s < RAMP_SAMPLES) {
      return extraBytes * s / RAMP_SAMPLES;
    }
    if (s < RAMP_SAMPLES + HOLD_SAMPLES) {
      return extraBytes;
    }
    return extraBytes * (2 * RAMP_SAMPLES + HOLD_SAMPLES - s) / RAMP_SAMPLES;
  }

  /** One sample of the next task in turn, then the changes the processor would store. */
  @Benchmark
  public void onSample(Blackhole blackhole) {
    int i = task;
    long tsMs = START_TS_MS + (round + 1) * SAMPLE_PERIOD_MS;
    long bytes = usageBytes[i][(int) (round % CYCLE_SAMPLES)];
    blackhole.consume(gate.onSample(MemorySample.running(taskIds[i], tsMs, bytes)));
    blackhole.consume(gate.drainChanges());
    if (++task == TASKS) {
      task = 0;
      round++;
    }
  }
}
