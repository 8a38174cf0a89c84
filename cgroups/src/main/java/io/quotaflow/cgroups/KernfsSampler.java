package io.quotaflow.cgroups;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The open files and the one reused buffer of a stats reader, plus the parsing steps the
 * readers share. A removed group makes reads fail with ENODEV (or ENOENT on reopen): both become
 * {@link CgroupGoneException}.
 */
abstract class KernfsSampler implements CgroupStatsReader {

  private static final int INITIAL_BUFFER_BYTES = 4096;

  private final TaskId task;
  private final MemoryStatRefresh memoryStatRefresh;
  private final List<KernfsFile> open = new ArrayList<>();
  private ByteBuffer buffer = ByteBuffer.allocateDirect(INITIAL_BUFFER_BYTES);
  private int readsSinceMemoryStat;
  private Long usageAtMemoryStat;
  private Long lastAnonBytes;

  KernfsSampler(TaskId task, MemoryStatRefresh memoryStatRefresh) {
    this.task = task;
    this.memoryStatRefresh = memoryStatRefresh;
  }

  @Override
  public TaskId task() {
    return task;
  }

  /** Opens a file of the group for the reader's lifetime; null when it is absent. */
  final KernfsFile open(Path dir, String name) throws IOException {
    KernfsFile file = KernfsFile.openIfPresent(dir.resolve(name));
    if (file != null) {
      open.add(file);
    }
    return file;
  }

  /** Re-reads {@code file}; the content is in the returned buffer's {@code [0, limit)}. */
  final ByteBuffer content(KernfsFile file) throws IOException {
    try {
      buffer = file.read(buffer);
      return buffer;
    } catch (IOException e) {
      KernelError error = KernelError.of(e);
      if (error == KernelError.ENODEV || error == KernelError.ENOENT) {
        throw new CgroupGoneException(task, file.path());
      }
      throw e;
    }
  }

  /** The file's single integer; null when the file is absent. */
  final Long longOf(KernfsFile file) throws IOException {
    return file == null ? null : boxed(KernfsParse.firstLong(content(file)));
  }

  /** A mandatory integer: absent or unparsable is an error, not a null. */
  final long requiredLong(KernfsFile file, String what) throws IOException {
    long value = file == null ? KernfsParse.MISSING : KernfsParse.firstLong(content(file));
    if (value == KernfsParse.MISSING) {
      throw new CgroupException("cannot read " + what + " of task " + task);
    }
    return value;
  }

  /**
   * Anonymous memory for this read: parsed from {@code memory.stat} when {@link MemoryStatRefresh}
   * says it is due for the usage this read found, otherwise the value last parsed.
   */
  final Long anonBytes(KernfsFile memoryStat, Long usageNow, ToLongFunction<ByteBuffer> parse) throws IOException {
    if (memoryStat == null) {
      return null;
    }
    if (memoryStatRefresh.due(++readsSinceMemoryStat, usageNow, usageAtMemoryStat)) {
      lastAnonBytes = boxed(parse.applyAsLong(content(memoryStat)));
      usageAtMemoryStat = usageNow;
      readsSinceMemoryStat = 0;
    }
    return lastAnonBytes;
  }

  static Long boxed(long value) {
    return value == KernfsParse.MISSING ? null : value;
  }

  static Long dividedBy1000(long value) {
    return value == KernfsParse.MISSING ? null : value / 1000;
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    for (KernfsFile file : open) {
      try {
        file.close();
      } catch (IOException e) {
        if (first == null) {
          first = e;
        }
      }
    }
    open.clear();
    if (first != null) {
      throw first;
    }
  }
}
