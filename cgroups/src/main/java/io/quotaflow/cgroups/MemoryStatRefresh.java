package io.quotaflow.cgroups;

/**
 * When a stats reader re-reads {@code memory.stat}, its costliest file (~10 µs of kernel time per
 * read on v1, against 1–3 µs for each other file): on every read, or only when the group's memory
 * usage moved since {@code memory.stat} was last read, and at least every {@code maxReadsBetween}
 * reads. In between, {@link CgroupStats#memoryAnonBytes()} repeats the value last read.
 *
 * <p>Anonymous memory is part of the usage, so it cannot grow much while the usage stands still
 * unless page cache shrinks at the same rate (reclaim under a limit): the bound on reads between
 * refreshes covers that case.
 *
 * @param maxReadsBetween {@code memory.stat} is read at least every this many reads (1: every read)
 * @param usageChangeRatio a change of the usage by more than this fraction of its value at the
 *     last {@code memory.stat} read makes the next read refresh it
 */
public record MemoryStatRefresh(int maxReadsBetween, double usageChangeRatio) {

  public static final MemoryStatRefresh EVERY_READ = new MemoryStatRefresh(1, 0);

  public MemoryStatRefresh {
    if (maxReadsBetween < 1) {
      throw new IllegalArgumentException("memory.stat must be read at least every N reads with N >= 1, was "
          + maxReadsBetween);
    }
    if (!(usageChangeRatio >= 0)) {
      throw new IllegalArgumentException("usage change ratio must be >= 0, was " + usageChangeRatio);
    }
  }

  /**
   * @param readsSinceRefresh reads since {@code memory.stat} was last read, this one included
   * @param usageNow the usage this read found, null if unknown
   * @param usageAtRefresh the usage when {@code memory.stat} was last read, null before the first
   */
  public boolean due(int readsSinceRefresh, Long usageNow, Long usageAtRefresh) {
    if (readsSinceRefresh >= maxReadsBetween || usageNow == null || usageAtRefresh == null) {
      return true;
    }
    return Math.abs(usageNow - usageAtRefresh) > usageChangeRatio * usageAtRefresh;
  }
}
