package io.quotaflow.cgroups;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Samples a v1 task group across its hierarchies (cpu, cpuacct, memory, freezer are separate
 * mounts here). A hierarchy where the group is missing at open time is looked for again: on
 * every read at first (a job system creating directories one hierarchy at a time), then rarely
 * (a job system that never uses that hierarchy should not cost a path walk per sample).
 */
final class V1StatsReader extends KernfsSampler {

  private static final int EAGER_RETRY_READS = 10;
  private static final int LATE_RETRY_EVERY_READS = 60;

  private static final byte[] NR_THROTTLED = KernfsParse.ascii("nr_throttled");
  private static final byte[] THROTTLED_TIME = KernfsParse.ascii("throttled_time");
  // total_rss is hierarchical, like memory.usage_in_bytes; rss alone misses nested groups.
  private static final byte[] TOTAL_RSS = KernfsParse.ascii("total_rss");
  private static final byte[] RSS = KernfsParse.ascii("rss");
  private static final byte[] FROZEN = KernfsParse.ascii("FROZEN");
  private static final byte[] FREEZING = KernfsParse.ascii("FREEZING");

  private final GroupTree tree;
  private final Hierarchy cpu;
  private final Hierarchy memory;
  private final Hierarchy freezer;

  private final KernfsFile usage;
  private boolean cpuOpen;
  private KernfsFile cpuStat;
  private KernfsFile quota;
  private KernfsFile period;
  private boolean memoryOpen;
  private KernfsFile memoryUsage;
  private KernfsFile memoryStat;
  private KernfsFile memoryPeak;
  private boolean freezerOpen;
  private KernfsFile freezerState;
  private long reads;

  V1StatsReader(TaskId task, GroupTree tree, Hierarchy cpu, Hierarchy cpuacct, Hierarchy memory,
      Hierarchy freezer, MemoryStatRefresh memoryStatRefresh) throws IOException {
    super(task, memoryStatRefresh);
    this.tree = tree;
    this.cpu = cpu;
    this.memory = memory;
    this.freezer = freezer;
    try {
      usage = open(tree.groupDir(cpuacct, task), "cpuacct.usage");
      if (usage == null) {
        throw new CgroupException("no cpuacct.usage in the cpuacct group of task " + task);
      }
      openLateHierarchies();
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  private void openLateHierarchies() throws IOException {
    if (cpu != null && !cpuOpen) {
      Path dir = tree.groupDirIfPresent(cpu, task());
      if (dir != null) {
        cpuStat = open(dir, "cpu.stat");
        quota = open(dir, "cpu.cfs_quota_us");
        period = open(dir, "cpu.cfs_period_us");
        cpuOpen = true;
      }
    }
    if (memory != null && !memoryOpen) {
      Path dir = tree.groupDirIfPresent(memory, task());
      if (dir != null) {
        memoryUsage = open(dir, "memory.usage_in_bytes");
        memoryStat = open(dir, "memory.stat");
        memoryPeak = open(dir, "memory.max_usage_in_bytes");
        memoryOpen = true;
      }
    }
    if (freezer != null && !freezerOpen) {
      Path dir = tree.groupDirIfPresent(freezer, task());
      if (dir != null) {
        freezerState = open(dir, "freezer.state");
        freezerOpen = true;
      }
    }
  }

  private static long rssOf(ByteBuffer stat) {
    long rss = KernfsParse.keyed(stat, TOTAL_RSS);
    return rss != KernfsParse.MISSING ? rss : KernfsParse.keyed(stat, RSS);
  }

  @Override
  public CgroupStats read() throws IOException {
    reads++;
    boolean pending = (cpu != null && !cpuOpen) || (memory != null && !memoryOpen)
        || (freezer != null && !freezerOpen);
    if (pending && (reads <= EAGER_RETRY_READS || reads % LATE_RETRY_EVERY_READS == 0)) {
      openLateHierarchies();
    }
    long usageUsec = requiredLong(usage, "cpuacct.usage") / 1000;
    Long nrThrottled = null;
    Long throttledUsec = null;
    if (cpuStat != null) {
      ByteBuffer stat = content(cpuStat);
      nrThrottled = boxed(KernfsParse.keyed(stat, NR_THROTTLED));
      throttledUsec = dividedBy1000(KernfsParse.keyed(stat, THROTTLED_TIME));
    }
    Long quotaUs = longOf(quota);
    // The period only turns a quota into cores: without a quota, skip a file read per sample.
    Long periodUs = quotaUs != null && quotaUs >= 0 ? longOf(period) : null;
    Long memoryBytes = longOf(memoryUsage);
    Long anonBytes = anonBytes(memoryStat, memoryBytes, V1StatsReader::rssOf);
    Long peakBytes = longOf(memoryPeak);
    FreezerState state = null;
    if (freezerState != null) {
      ByteBuffer text = content(freezerState);
      state = KernfsParse.startsWithWord(text, FROZEN) ? FreezerState.FROZEN
          : KernfsParse.startsWithWord(text, FREEZING) ? FreezerState.FREEZING
          : FreezerState.THAWED;
    }
    return new CgroupStats(usageUsec, nrThrottled, throttledUsec, memoryBytes, anonBytes, peakBytes,
        quotaUs, periodUs, state);
  }
}
