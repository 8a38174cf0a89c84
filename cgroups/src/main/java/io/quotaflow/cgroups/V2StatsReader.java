package io.quotaflow.cgroups;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Samples a v2 task group: one directory. Files of controllers the parent does not enable for
 * its children (cpu.max, memory.*) are absent and read as null.
 */
final class V2StatsReader extends KernfsSampler {

  private static final byte[] USAGE_USEC = KernfsParse.ascii("usage_usec");
  private static final byte[] NR_THROTTLED = KernfsParse.ascii("nr_throttled");
  private static final byte[] THROTTLED_USEC = KernfsParse.ascii("throttled_usec");
  private static final byte[] ANON = KernfsParse.ascii("anon");
  private static final byte[] FROZEN = KernfsParse.ascii("frozen");
  private static final byte[] MAX = KernfsParse.ascii("max");

  private final KernfsFile cpuStat;
  private final KernfsFile cpuMax;
  private final KernfsFile memoryCurrent;
  private final KernfsFile memoryStat;
  private final KernfsFile memoryPeak;
  private final KernfsFile freeze;
  private final KernfsFile events;

  V2StatsReader(TaskId task, GroupTree tree, Hierarchy h, MemoryStatRefresh memoryStatRefresh) throws IOException {
    super(task, memoryStatRefresh);
    try {
      Path dir = tree.groupDir(h, task);
      cpuStat = open(dir, "cpu.stat");
      if (cpuStat == null) {
        throw new CgroupException("no cpu.stat in the v2 group of task " + task);
      }
      cpuMax = open(dir, "cpu.max");
      memoryCurrent = open(dir, "memory.current");
      memoryStat = open(dir, "memory.stat");
      memoryPeak = open(dir, "memory.peak");
      freeze = open(dir, "cgroup.freeze");
      events = open(dir, "cgroup.events");
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  private static long anonOf(ByteBuffer memoryStat) {
    return KernfsParse.keyed(memoryStat, ANON);
  }

  @Override
  public CgroupStats read() throws IOException {
    ByteBuffer stat = content(cpuStat);
    long usageUsec = KernfsParse.keyed(stat, USAGE_USEC);
    if (usageUsec == KernfsParse.MISSING) {
      throw new CgroupException("no usage_usec in cpu.stat of task " + task());
    }
    // Present only with the cpu controller enabled.
    Long nrThrottled = boxed(KernfsParse.keyed(stat, NR_THROTTLED));
    Long throttledUsec = boxed(KernfsParse.keyed(stat, THROTTLED_USEC));
    Long quotaUs = null;
    Long periodUs = null;
    if (cpuMax != null) {
      ByteBuffer max = content(cpuMax);
      quotaUs = KernfsParse.startsWithWord(max, MAX) ? KernelCpuLimits.NO_QUOTA
          : boxed(KernfsParse.firstLong(max));
      int second = KernfsParse.afterFirstSpace(max);
      periodUs = second < 0 ? null : boxed(KernfsParse.longAt(max, second));
    }
    Long memoryBytes = longOf(memoryCurrent);
    Long anonBytes = anonBytes(memoryStat, memoryBytes, V2StatsReader::anonOf);
    Long peakBytes = longOf(memoryPeak);
    FreezerState state = null;
    if (freeze != null && events != null) {
      boolean requested = KernfsParse.firstLong(content(freeze)) == 1;
      boolean frozen = KernfsParse.keyed(content(events), FROZEN) == 1;
      state = V2Cgroups.freezerState(requested, frozen);
    }
    return new CgroupStats(usageUsec, nrThrottled, throttledUsec, memoryBytes, anonBytes, peakBytes,
        quotaUs, periodUs, state);
  }
}
