package io.quotaflow.enforcer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A task whose memory climbs in steps, for tests on real cgroups: run as its own JVM
 * ({@code java -cp TEST_CLASSES io.quotaflow.enforcer.SteppingAllocator LOG MIB_PER_S}) in a task group,
 * it reads targets from standard input, one number of MiB a line, and grows toward the latest
 * one in 1 MiB direct buffers (zeroed when allocated, so touched and charged to the group as
 * anonymous memory) at {@code MIB_PER_S}, never freeing. After each MiB it appends
 * {@code EPOCH_MS RSS_ANON_BYTES} to {@code LOG} (its own clock and its own
 * {@code /proc/self/status RssAnon}, what the group's {@code total_rss} counts for it), so a test
 * can tell when it crossed a threshold. It exits when its input closes.
 */
public final class SteppingAllocator {

  private static final int MIB = 1 << 20;
  private static volatile long targetMib;

  private SteppingAllocator() {}

  public static void main(String[] args) throws Exception {
    Path log = Path.of(args[0]);
    double mibPerSecond = Double.parseDouble(args[1]);
    long nanosPerMib = (long) (1e9 / mibPerSecond);
    Thread reader = new Thread(SteppingAllocator::readTargets, "targets");
    reader.setDaemon(true);
    reader.start();
    List<ByteBuffer> held = new ArrayList<>();
    try (PrintStream out = new PrintStream(Files.newOutputStream(log), true, StandardCharsets.US_ASCII)) {
      out.println(System.currentTimeMillis() + " " + rssAnonBytes());
      long next = System.nanoTime();
      while (reader.isAlive()) {
        if (held.size() >= targetMib) {
          Thread.sleep(2);
          next = System.nanoTime();
          continue;
        }
        held.add(ByteBuffer.allocateDirect(MIB));
        out.println(System.currentTimeMillis() + " " + rssAnonBytes());
        next += nanosPerMib;
        long wait = next - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
      }
    }
  }

  private static void readTargets() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (!line.isBlank()) {
          targetMib = Long.parseLong(line.trim());
        }
      }
    } catch (IOException e) {
      // input gone: stop
    }
  }

  private static long rssAnonBytes() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
      if (line.startsWith("RssAnon:")) {
        return Long.parseLong(line.substring("RssAnon:".length()).replace("kB", "").trim()) * 1024;
      }
    }
    throw new IOException("no RssAnon in /proc/self/status");
  }
}
