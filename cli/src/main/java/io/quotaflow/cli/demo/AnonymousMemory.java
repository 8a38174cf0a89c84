package io.quotaflow.cli.demo;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Anonymous memory this process holds on purpose, in 1 MiB direct buffers: {@link #resizeTo} brings
 * the process's whole anonymous memory ({@code RssAnon} of {@code /proc/self/status}, what the
 * cgroup's {@code memory.stat rss} shows for it) to a target, counting the JVM's own as part of it.
 *
 * <p>Why direct buffers: their pages are zeroed (so touched and charged) when allocated and go back
 * to the kernel when freed. Measured on this machine's kernel (6.18, cgroup v1): 1 MiB direct buffers
 * follow 48 → 176 → 48 MiB steps to within 1 MiB over fifteen cycles, while a SerialGC heap with
 * {@code MaxHeapFreeRatio=10} and {@code System.gc()} kept 209 MiB after stepping down from 192 to 64 MiB.
 * A buffer is freed at once by its cleaner ({@code sun.misc.Unsafe.invokeCleaner}, looked up
 * reflectively), else by a collection; that it really leaves the process also needs malloc to give
 * each buffer its own mapping ({@link MemoryWorkload#ENVIRONMENT}).
 */
final class AnonymousMemory implements AutoCloseable {

  static final int CHUNK_BYTES = 1 << 20;
  private static final Path STATUS = Path.of("/proc/self/status");
  private static final Cleaner CLEANER = Cleaner.find();

  private final Deque<ByteBuffer> chunks = new ArrayDeque<>();

  /** Bytes held in buffers. */
  long heldBytes() {
    return (long) chunks.size() * CHUNK_BYTES;
  }

  /**
   * Allocates or frees whole chunks so that the process's anonymous memory comes to about
   * {@code targetBytes} (never below what the JVM needs for itself).
   */
  void resizeTo(long targetBytes) throws IOException {
    resizeTo(targetBytes, Long.MAX_VALUE, () -> {});
  }

  /**
   * As {@link #resizeTo(long)}, and runs {@code onCrossing} once, right before the chunks that take the process's
   * anonymous memory from at most {@code markBytes} to above it: the allocator's own time of a threshold crossing,
   * to within two chunks' allocation.
   *
   * <p>Before, not after: a reflex that watches the process's group may freeze it as soon as its reading is past
   * the mark, and a frozen process reports nothing until it is thawed, which a waiting task is not. Two chunks ahead,
   * not one, because the kernel's count of a process's resident pages may trail the group's (both are summed from
   * per-CPU counters). With a mark, the memory is read after each chunk rather than estimated from the JVM's own at
   * the start (the JVM's own grows while it allocates); a crossing that growth made unforeseen is reported as soon as
   * a reading shows it.
   */
  void resizeTo(long targetBytes, long markBytes, Runnable onCrossing) throws IOException {
    long ownBytes = Math.max(0, rssAnonBytes() - heldBytes());
    long wantChunks = Math.max(0, Math.round((double) (targetBytes - ownBytes) / CHUNK_BYTES));
    boolean marked = markBytes != Long.MAX_VALUE;
    long readBytes = ownBytes + heldBytes();
    boolean reported = !marked || readBytes > markBytes; // already above: nothing to cross
    while (chunks.size() < wantChunks) {
      if (!reported && readBytes + 2L * CHUNK_BYTES > markBytes) {
        onCrossing.run();
        reported = true;
      }
      chunks.push(ByteBuffer.allocateDirect(CHUNK_BYTES));
      readBytes = marked ? rssAnonBytes() : ownBytes + heldBytes();
      if (!reported && readBytes > markBytes) {
        onCrossing.run();
        reported = true;
      }
    }
    boolean freed = false;
    while (chunks.size() > wantChunks) {
      CLEANER.free(chunks.pop());
      freed = true;
    }
    if (freed && !CLEANER.immediate()) {
      System.gc();
    }
  }

  /** This process's resident anonymous memory, bytes. */
  static long rssAnonBytes() throws IOException {
    for (String line : new String(Files.readAllBytes(STATUS), StandardCharsets.US_ASCII).split("\n")) {
      if (line.startsWith("RssAnon:")) {
        return Long.parseLong(line.substring("RssAnon:".length()).replace("kB", "").trim()) * 1024;
      }
    }
    throw new IOException("no RssAnon in " + STATUS);
  }

  @Override
  public void close() {
    while (!chunks.isEmpty()) {
      CLEANER.free(chunks.pop());
    }
  }

  /** Frees a direct buffer's memory now, where the JDK lets us; otherwise the next collection does. */
  private record Cleaner(Object unsafe, Method invokeCleaner) {

    static Cleaner find() {
      try {
        Class<?> type = Class.forName("sun.misc.Unsafe");
        java.lang.reflect.Field field = type.getDeclaredField("theUnsafe");
        field.setAccessible(true);
        return new Cleaner(field.get(null), type.getMethod("invokeCleaner", ByteBuffer.class));
      } catch (ReflectiveOperationException | RuntimeException e) {
        return new Cleaner(null, null);
      }
    }

    boolean immediate() {
      return invokeCleaner != null;
    }

    void free(ByteBuffer buffer) {
      if (invokeCleaner == null) {
        return; // unreachable from here on: the collection after it frees it
      }
      try {
        invokeCleaner.invoke(unsafe, buffer);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot free a direct buffer", e);
      }
    }
  }
}
