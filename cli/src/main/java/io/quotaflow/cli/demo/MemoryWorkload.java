package io.quotaflow.cli.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The stepping allocator, run as {@code Workload memory SCHEDULE} or {@code Workload memory stdin}:
 * every {@link Workload#ROUND} it burns a tenth of a core ({@link Workload.Shape#LIGHT}, so a test
 * sees its CPU time stop while frozen) and brings its anonymous memory to the target of that moment
 * ({@link AnonymousMemory}): from a {@link MemorySchedule} over its own progress, or the latest line
 * read from standard input, in MiB (it exits when the input closes).
 */
final class MemoryWorkload {

  static final String ARGUMENT = "memory";
  /**
   * A fixed malloc mmap threshold: every 1 MiB buffer gets its own mapping and goes back to the
   * kernel when freed. With glibc's default, freeing a mapped chunk raises the threshold, later
   * buffers come from a malloc arena, and freed ones stay there: measured here, a step back to 64 MiB
   * left 80 to 105 MiB charged in four runs of six; with the threshold fixed, none of 21 steps down did.
   */
  static final List<String> ENVIRONMENT = List.of("MALLOC_MMAP_THRESHOLD_=131072");
  static final String STDIN = "stdin";
  /** Starts the line printed when the allocator grows past the mark of its stdin line: {@code crossed MARK EPOCH_MS}. */
  static final String CROSSED = "crossed";
  /** Room for the JVM's own direct buffers besides the held ones. */
  private static final long DIRECT_MARGIN_MB = 32;

  private MemoryWorkload() {}

  /** The JVM flag that lets it hold up to {@code maxMb} in direct buffers. */
  static String directMemoryFlag(long maxMb) {
    return "-XX:MaxDirectMemorySize=" + (maxMb + DIRECT_MARGIN_MB) + "m";
  }

  static void run(String source) throws IOException, InterruptedException {
    Target target = source.equals(STDIN) ? StdinTarget.start() : new ScheduleTarget(MemorySchedule.parse(source));
    ProgressClock clock = new ProgressClock(System.nanoTime());
    try (AnonymousMemory memory = new AnonymousMemory()) {
      while (true) {
        Workload.burnRound(Workload.Shape.LIGHT.demandCores(0));
        long mb = target.mbAt(clock.advance(System.nanoTime()));
        if (mb < 0) {
          return;
        }
        long markBytes = target.markBytes();
        memory.resizeTo(mb << 20, markBytes, () -> crossed(markBytes));
      }
    }
  }

  /** The memory to hold at a moment of progress, MiB; negative: stop. */
  private interface Target {
    long mbAt(long progressMs);

    /** Growing past this many bytes is reported on standard output ({@link #crossed}). */
    default long markBytes() {
      return Long.MAX_VALUE;
    }
  }

  /** The allocator's own time of a crossing, for a benchmark that measures how soon the freezer stops it. */
  private static void crossed(long markBytes) {
    System.out.println(CROSSED + " " + markBytes + " " + System.currentTimeMillis());
    System.out.flush();
  }

  private record ScheduleTarget(MemorySchedule schedule) implements Target {
    @Override
    public long mbAt(long progressMs) {
      return schedule.targetMbAt(progressMs);
    }
  }

  /**
   * The latest line read from standard input: {@code MIB}, or {@code MIB MARK_BYTES} to have the crossing of
   * {@code MARK_BYTES} reported; before the first, nothing beyond the JVM's own.
   */
  private static final class StdinTarget implements Target {
    private volatile long mb;
    private volatile long markBytes = Long.MAX_VALUE;

    static StdinTarget start() {
      StdinTarget target = new StdinTarget();
      Thread reader = new Thread(target::read, "stdin-target");
      reader.setDaemon(true);
      reader.start();
      return target;
    }

    private void read() {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          String[] fields = line.trim().split("\\s+");
          if (!line.isBlank()) {
            markBytes = fields.length > 1 ? Long.parseLong(fields[1]) : Long.MAX_VALUE;
            mb = Math.max(0, Long.parseLong(fields[0]));
          }
        }
      } catch (IOException | NumberFormatException e) {
        System.err.println("memory workload: stopping: " + e);
      }
      mb = -1; // the input closed: the test or demo that drove us is gone
    }

    @Override
    public long mbAt(long progressMs) {
      return mb;
    }

    @Override
    public long markBytes() {
      return markBytes;
    }
  }
}
