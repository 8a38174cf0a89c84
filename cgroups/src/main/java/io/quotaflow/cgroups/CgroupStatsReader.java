package io.quotaflow.cgroups;

import java.io.Closeable;
import java.io.IOException;

/**
 * Samples one task group through files opened once: each {@link #read()} is a positional re-read
 * of each file into a reused buffer, parsed without Strings. Not thread-safe.
 */
public interface CgroupStatsReader extends Closeable {

  TaskId task();

  /** @throws CgroupGoneException once the group has been removed */
  CgroupStats read() throws IOException;
}
