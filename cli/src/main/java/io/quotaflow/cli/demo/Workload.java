package io.quotaflow.cli.demo;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The demo's workloads: a small program each demo task runs in its own JVM, on one thread, so it
 * never asks for more than one CPU. The simulator asks the same {@link Shape} how much CPU a task
 * wants (and the same {@link MemorySchedule} how much memory a stepping allocator holds), so both
 * modes run the same tasks.
 */
public final class Workload {

  /** How much CPU a workload wants over time, in cores. */
  public enum Shape {
    /** Always wants one core. */
    BUSY,
    /** Sleeps: wants nothing. */
    IDLE,
    /**
     * Nothing for {@link #SPELL}, then one core for as long, over and over: idle first, so its burst
     * pool saves volume before it spends it.
     */
    BURSTY,
    /** A tenth of a core: what a stepping allocator ({@link MemoryWorkload}) burns besides its memory. */
    LIGHT;

    static final Duration SPELL = Duration.ofSeconds(60);

    /** The cores this shape wants {@code elapsedMs} after it started. */
    public double demandCores(long elapsedMs) {
      return switch (this) {
        case BUSY -> 1.0;
        case IDLE -> 0.0;
        case BURSTY -> (elapsedMs / SPELL.toMillis()) % 2 == 0 ? 0.0 : 1.0;
        case LIGHT -> 0.1;
      };
    }

    public String argument() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Shape parse(String text) {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    }
  }

  private Workload() {}

  /**
   * The command that runs {@code shape} in a small JVM of its own: this JVM's java binary, only
   * this class's jar or directory on the class path, a 16 MiB heap and the client compiler, so
   * four of them cost little next to the broker.
   */
  public static List<String> command(Shape shape) {
    return jvm(List.of(), List.of(), shape.argument());
  }

  /**
   * The command that runs a stepping allocator on {@code schedule} ({@link MemoryWorkload}): the same
   * small JVM, with room for the schedule's peak in direct buffers, where its memory is held.
   */
  public static List<String> command(MemorySchedule schedule) {
    return jvm(MemoryWorkload.ENVIRONMENT, List.of(MemoryWorkload.directMemoryFlag(schedule.peakMb())),
        MemoryWorkload.ARGUMENT, schedule.argument());
  }

  /**
   * Starts the line a {@link #stdinControlled} allocator prints when it grows past the mark of its input line
   * ({@code MIB MARK_BYTES}): {@code crossed MARK_BYTES EPOCH_MS}, the allocator's own time of the crossing.
   */
  public static final String CROSSED = MemoryWorkload.CROSSED;

  /**
   * The command that runs a stepping allocator told what to hold by lines on its standard input,
   * each a number of MiB of anonymous memory (for tests, which step it deterministically), optionally
   * followed by a mark in bytes whose crossing it reports ({@link #CROSSED}); it exits when its input
   * closes. {@code maxMb}: the most a line may ask for.
   */
  public static List<String> stdinControlled(long maxMb) {
    return jvm(MemoryWorkload.ENVIRONMENT, List.of(MemoryWorkload.directMemoryFlag(maxMb)), MemoryWorkload.ARGUMENT,
        MemoryWorkload.STDIN);
  }

  /** {@code environment}: NAME=value settings, passed through {@code env}, which execs the JVM in the same process. */
  private static List<String> jvm(List<String> environment, List<String> extraFlags, String... arguments) {
    String java = ProcessHandle.current().info().command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> command = new ArrayList<>();
    if (!environment.isEmpty()) {
      command.add("env");
      command.addAll(environment);
    }
    command.addAll(List.of(java, "-Xmx16m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData"));
    command.addAll(extraFlags);
    command.addAll(List.of("-cp", codeLocation(), Workload.class.getName()));
    command.addAll(List.of(arguments));
    return List.copyOf(command);
  }

  private static String codeLocation() {
    try {
      return Path.of(Workload.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException | RuntimeException e) {
      return System.getProperty("java.class.path");
    }
  }

  /** Written by the busy loop so the JIT cannot drop it as dead code. */
  private static volatile long sink;

  /** Each round a workload burns its share of {@link #ROUND} and sleeps the rest. */
  static final Duration ROUND = Duration.ofMillis(100);

  /**
   * {@code Workload busy|idle|bursty|light}: runs until killed. {@code Workload memory SCHEDULE|stdin}:
   * a stepping allocator ({@link MemoryWorkload}).
   */
  public static void main(String[] args) throws Exception {
    if (args.length == 2 && args[0].equals(MemoryWorkload.ARGUMENT)) {
      MemoryWorkload.run(args[1]);
      return;
    }
    if (args.length != 1) {
      System.err.println("usage: Workload busy|idle|bursty|light | Workload memory SCHEDULE|stdin");
      System.exit(2);
    }
    Shape shape = Shape.parse(args[0]);
    long start = System.nanoTime();
    while (true) {
      burnRound(shape.demandCores((System.nanoTime() - start) / 1_000_000));
    }
  }

  /** One {@link #ROUND}: spins on this thread for {@code cores} of it (at most all of it), sleeps the rest. */
  static void burnRound(double cores) throws InterruptedException {
    long roundNanos = ROUND.toNanos();
    long spinNanos = Math.round(Math.min(1.0, Math.max(0.0, cores)) * roundNanos);
    long until = System.nanoTime() + spinNanos;
    long x = 0;
    while (System.nanoTime() < until) {
      x += until ^ x;
    }
    sink = x;
    long sleepNanos = roundNanos - spinNanos;
    if (sleepNanos > 0) {
      Thread.sleep(sleepNanos / 1_000_000, (int) (sleepNanos % 1_000_000));
    }
  }
}
