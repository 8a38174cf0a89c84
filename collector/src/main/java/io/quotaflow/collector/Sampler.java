package io.quotaflow.collector;

import io.quotaflow.cgroups.CgroupGoneException;
import io.quotaflow.cgroups.CgroupStats;
import io.quotaflow.cgroups.CgroupStatsReader;
import io.quotaflow.cgroups.Cgroups;
import io.quotaflow.cgroups.Discovery;
import io.quotaflow.cgroups.MemoryStatRefresh;
import io.quotaflow.cgroups.TaskId;
import io.quotaflow.schemas.avro.CgroupSample;
import java.io.IOException;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One sampling round at a time: find the task groups under the parent, keep a reader open per
 * group, read each, and hand the samples on in task order with consecutive {@code seq}. A group
 * that disappears (from the listing, or a read failing with ENODEV) gets one GONE sample and its
 * reader is closed. Not thread-safe: one sampling thread calls {@link #round()}.
 */
final class Sampler implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Sampler.class);
  /**
   * Listing the parent costs ~3 ms for 500 groups, a sixth of a round, so it is done only when the
   * kernel's count of subdirectories moved or a group went; and every this many rounds anyway, in
   * case one group was renamed, or removed and another added, between two rounds.
   */
  static final int FULL_DISCOVERY_EVERY_ROUNDS = 30;

  private final Cgroups cgroups;
  private final MemoryStatRefresh memoryStatRefresh;
  private final SampleBuilder builder;
  private final LongSupplier clockMs;
  private final BiConsumer<String, CgroupSample> sink;
  private final CollectorMetrics metrics;
  private final Map<TaskId, Tracked> tracked = new TreeMap<>();
  /** Problems already logged, so a persistent one is one log line, not one per second. */
  private final Set<String> reported = new HashSet<>();
  private volatile int groups;
  private volatile int refusedGroups;
  private long nextSeq;
  private int lastChildCount = -1;
  private int roundsSinceDiscovery;
  private boolean discoverNext = true;

  /** A group being sampled: its open reader, its key, and its last reading (for GONE). */
  private static final class Tracked {
    final CgroupStatsReader reader;
    final String key;
    CgroupStats last;
    boolean failing;

    Tracked(CgroupStatsReader reader, String key) {
      this.reader = reader;
      this.key = key;
    }
  }

  /**
   * @param clockMs the wall clock a sample's {@code ts_ms} is read from, right after its files
   * @param sink receives each sample with its {@code node/task} key, on the sampling thread
   */
  Sampler(Cgroups cgroups, MemoryStatRefresh memoryStatRefresh, SampleBuilder builder, LongSupplier clockMs,
      BiConsumer<String, CgroupSample> sink, CollectorMetrics metrics) {
    this.cgroups = cgroups;
    this.memoryStatRefresh = memoryStatRefresh;
    this.builder = builder;
    this.clockMs = clockMs;
    this.sink = sink;
    this.metrics = metrics;
  }

  void round() {
    reconcile();
    readAll();
    groups = tracked.size();
  }

  /** Task groups sampled in the last round. */
  int groups() {
    return groups;
  }

  /** Entries under the parent the last listing refused (a symlink, a name that is no valid task id): never read. */
  int refusedGroups() {
    return refusedGroups;
  }

  /**
   * Whether the parent may hold other groups than last listed. The count is read before the
   * listing, so a change after it shows in the next round.
   */
  private boolean discoveryNeeded() {
    int count;
    try {
      count = cgroups.childGroupCount();
    } catch (IOException e) {
      count = -1;
    }
    boolean changed = count < 0 || count != lastChildCount;
    lastChildCount = count;
    boolean due = ++roundsSinceDiscovery >= FULL_DISCOVERY_EVERY_ROUNDS;
    boolean needed = changed || due || discoverNext;
    if (needed) {
      roundsSinceDiscovery = 0;
      discoverNext = false;
    }
    return needed;
  }

  /** Opens readers for new groups and sends GONE for groups no longer listed. */
  private void reconcile() {
    if (!discoveryNeeded()) {
      return;
    }
    Discovery discovery;
    try {
      discovery = cgroups.discover();
    } catch (IOException e) {
      // Keep sampling the groups already open: a read tells us when one goes.
      discoverNext = true;
      metrics.readErrors.increment();
      reportOnce("discover", "cannot list the task groups: {}", e.getMessage());
      return;
    }
    refusedGroups = discovery.skipped().size();
    for (String skipped : discovery.skipped()) {
      reportOnce("skip " + skipped, "not sampling {}", skipped);
    }
    List<TaskId> present = discovery.tasks();
    Iterator<Map.Entry<TaskId, Tracked>> it = tracked.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<TaskId, Tracked> entry = it.next();
      // Both sorted: a binary search per tracked group, no set built per round.
      if (Collections.binarySearch(present, entry.getKey()) < 0) {
        publishGone(entry.getKey(), entry.getValue());
        it.remove();
      }
    }
    for (TaskId task : present) {
      if (!tracked.containsKey(task)) {
        open(task);
      }
    }
  }

  private void open(TaskId task) {
    try {
      tracked.put(task, new Tracked(cgroups.openReader(task, memoryStatRefresh), builder.keyOf(task)));
      reported.remove("open " + task);
      LOG.debug("sampling task group {}", task);
    } catch (CgroupGoneException e) {
      // Removed between the listing and the open: never sampled, so nothing to close off.
      discoverNext = true;
    } catch (IOException | RuntimeException e) {
      discoverNext = true; // try again next round
      metrics.readErrors.increment();
      reportOnce("open " + task, "cannot open the cgroup files of task {}: {}", task, e.getMessage());
    }
  }

  private void readAll() {
    Iterator<Map.Entry<TaskId, Tracked>> it = tracked.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<TaskId, Tracked> entry = it.next();
      TaskId task = entry.getKey();
      Tracked group = entry.getValue();
      CgroupStats stats;
      try {
        stats = group.reader.read();
      } catch (CgroupGoneException e) {
        publishGone(task, group);
        it.remove();
        discoverNext = true; // another group may have taken its place in the count
        continue;
      } catch (IOException | RuntimeException e) {
        metrics.readErrors.increment();
        if (!group.failing) {
          group.failing = true;
          LOG.warn("cannot read the cgroup of task {}: {}", task, e.getMessage());
        }
        continue;
      }
      long tsMs = clockMs.getAsLong();
      if (group.failing) {
        group.failing = false;
        LOG.info("the cgroup of task {} reads again", task);
      }
      group.last = stats;
      sink.accept(group.key, builder.running(task, tsMs, stats, nextSeq++));
    }
  }

  private void publishGone(TaskId task, Tracked group) {
    closeQuietly(group.reader);
    metrics.goneSamples.increment();
    LOG.debug("task group {} is gone", task);
    sink.accept(group.key, builder.gone(task, clockMs.getAsLong(), group.last, nextSeq++));
  }

  private void reportOnce(String problem, String format, Object... args) {
    if (reported.add(problem)) {
      LOG.warn(format, args);
    }
  }

  private static void closeQuietly(CgroupStatsReader reader) {
    try {
      reader.close();
    } catch (IOException e) {
      LOG.debug("closing the reader of {}: {}", reader.task(), e.getMessage());
    }
  }

  /** Closes every reader; sends no GONE (the groups still exist, the collector is stopping). */
  @Override
  public void close() {
    tracked.values().forEach(group -> closeQuietly(group.reader));
    tracked.clear();
    groups = 0;
  }
}
