package io.quotaflow.enforcer;

import io.quotaflow.cgroups.CgroupGoneException;
import io.quotaflow.cgroups.CgroupStats;
import io.quotaflow.cgroups.CgroupStatsReader;
import io.quotaflow.cgroups.Cgroups;
import io.quotaflow.cgroups.MemoryStatRefresh;
import io.quotaflow.cgroups.TaskId;
import java.io.IOException;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the memory usage of the tasks the reflex watches, through the cgroups module's stats
 * readers the collector uses (files opened once, re-read in place). Usage is the gate's figure:
 * anonymous memory when the kernel reports it, else all of the group's memory. {@code memory.stat}
 * is re-read on every reading: between two readings only 100 ms pass, and a crossing must not hide
 * behind a value repeated from an earlier read. Not thread-safe: the enforcer's thread calls it.
 */
final class ReflexWatcher implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ReflexWatcher.class);

  /** A task's usage and when it was read ({@link System#nanoTime()}). */
  record Reading(long usageBytes, long readAtNanos) {}

  private final Cgroups cgroups;
  private final Map<TaskId, CgroupStatsReader> readers = new TreeMap<>();
  /** Problems already logged, so a lasting one is one line, not ten a second. */
  private final Set<TaskId> reported = new HashSet<>();

  ReflexWatcher(Cgroups cgroups) {
    this.cgroups = cgroups;
  }

  /**
   * Reads each of {@code tasks}, opening readers for new ones and closing those of tasks no longer
   * watched. A task whose group is missing or unreadable has no reading (it is tried again next time).
   */
  Map<TaskId, Reading> read(Set<TaskId> tasks) {
    Iterator<Map.Entry<TaskId, CgroupStatsReader>> open = readers.entrySet().iterator();
    while (open.hasNext()) {
      Map.Entry<TaskId, CgroupStatsReader> entry = open.next();
      if (!tasks.contains(entry.getKey())) {
        closeQuietly(entry.getValue());
        open.remove();
      }
    }
    reported.retainAll(tasks);
    Map<TaskId, Reading> readings = new TreeMap<>();
    for (TaskId task : tasks) {
      CgroupStatsReader reader = readers.get(task);
      try {
        if (reader == null) {
          reader = cgroups.openReader(task, MemoryStatRefresh.EVERY_READ);
          readers.put(task, reader);
        }
        CgroupStats stats = reader.read();
        Long usage = stats.memoryAnonBytes() != null ? stats.memoryAnonBytes() : stats.memoryBytes();
        if (usage != null) {
          readings.put(task, new Reading(usage, System.nanoTime()));
          reported.remove(task);
        } else if (reported.add(task)) {
          LOG.warn("Reflex: no memory usage for task {} (no memory controller?): not watched", task);
        }
      } catch (IOException | RuntimeException e) {
        if (reader != null) {
          closeQuietly(reader); // reopened next time: the group may have been removed and made again
          readers.remove(task);
        }
        if (reported.add(task) && !(e instanceof CgroupGoneException)) {
          LOG.warn("Reflex: cannot read the memory of task {}: {}", task, e.getMessage());
        }
      }
    }
    return readings;
  }

  /** Tasks with an open reader. */
  int watching() {
    return readers.size();
  }

  @Override
  public void close() {
    readers.values().forEach(ReflexWatcher::closeQuietly);
    readers.clear();
  }

  private static void closeQuietly(CgroupStatsReader reader) {
    try {
      reader.close();
    } catch (IOException e) {
      LOG.debug("Closing the reader of {} failed: {}", reader.task(), e.toString());
    }
  }
}
