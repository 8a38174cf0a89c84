package io.quotaflow.cli.demo;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The demo's workloads: a small program each demo task runs in its own JVM, on one thread, so it
 * never asks for more than one CPU. The simulator asks the same {@link Shape} how much CPU a task
 * wants, so both modes run the same four tasks.
 */
public final class Workload {

  /** How much CPU a workload wants over time, in cores. */
  public enum Shape {
    /** Always wants one core. */
    BUSY,
    /** Sleeps: wants nothing. */
    IDLE,
    /** One core for {@link #BURST}, then nothing for as long, over and over. */
    BURSTY;

    static final Duration BURST = Duration.ofSeconds(15);

    /** The cores this shape wants {@code elapsedMs} after it started. */
    public double demandCores(long elapsedMs) {
      return switch (this) {
        case BUSY -> 1.0;
        case IDLE -> 0.0;
        case BURSTY -> (elapsedMs / BURST.toMillis()) % 2 == 0 ? 1.0 : 0.0;
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
    String java = ProcessHandle.current().info().command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    return List.of(java, "-Xmx16m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData",
        "-cp", codeLocation(), Workload.class.getName(), shape.argument());
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

  /** {@code Workload busy|idle|bursty}: runs until killed. */
  public static void main(String[] args) throws InterruptedException {
    if (args.length != 1) {
      System.err.println("usage: Workload busy|idle|bursty");
      System.exit(2);
    }
    Shape shape = Shape.parse(args[0]);
    long start = System.nanoTime();
    while (true) {
      long elapsedMs = (System.nanoTime() - start) / 1_000_000;
      if (shape.demandCores(elapsedMs) > 0) {
        // Spin for 10 ms between looks at the shape: one thread, so at most one core.
        long until = System.nanoTime() + 10_000_000;
        long x = 0;
        while (System.nanoTime() < until) {
          x += until ^ x;
        }
        sink = x;
      } else {
        Thread.sleep(100);
      }
    }
  }
}
