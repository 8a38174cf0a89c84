package io.quotaflow.cgroups;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Task groups under one parent, on cgroup v1 or v2: what the collector reads and the enforcer
 * writes. Every operation takes a {@link TaskId}, so it can only reach a direct child of the
 * parent; symlinks are refused and only allowlisted files are written ({@code docs/cgroups.md}).
 *
 * <p>Instances are thread-safe; a {@link CgroupStatsReader} is not (one per sampling thread).
 */
public interface Cgroups {

  /** Finds the hierarchies under {@code config.root()} and resolves the parent in each. */
  static Cgroups open(CgroupConfig config) throws IOException {
    return CgroupsFactory.open(config);
  }

  CgroupVersion version();

  /** One line naming the version, hierarchies and parent, for logs and startup messages. */
  String describe();

  /** False on a v2 tree whose parent does not enable the cpu controller for its children. */
  boolean cpuSettingsSupported() throws IOException;

  boolean freezerSupported();

  // ---- discovery and reading (collector) ----

  /** The task groups under the parent (empty when the parent does not exist yet). */
  Discovery discover() throws IOException;

  /**
   * How many child groups the kernel counts under the parent, from one stat of its directory
   * (cgroupfs keeps a directory's link count at 2 + its subdirectories): a cheap test of whether
   * {@link #discover()} could find something new. It counts every subdirectory, also those
   * {@code discover()} skips. -1 when the parent does not exist or the count is unknown.
   */
  default int childGroupCount() throws IOException {
    return -1;
  }

  /** Opens the task's files once for repeated sampling; close it when the task is gone. */
  CgroupStatsReader openReader(TaskId task) throws IOException;

  /** As {@link #openReader(TaskId)}, re-reading {@code memory.stat} only when {@code refresh} says so. */
  default CgroupStatsReader openReader(TaskId task, MemoryStatRefresh refresh) throws IOException {
    return openReader(task);
  }

  /** The task a group directory belongs to; refuses anything but a direct child of the parent. */
  TaskId taskIdOf(Path groupDir) throws UnsafeCgroupPathException;

  // ---- CPU settings and freezer (enforcer) ----

  CgroupCpuRead readCpu(TaskId task) throws IOException;

  /**
   * Writes the files whose kernel value differs from {@code settings} (v1: shares, period, then
   * quota, the quota clamped to the ancestors'; v2: weight, then cpu.max) and checks the read-back
   * against the kernel-normalized request.
   *
   * @throws CgroupWriteException the kernel refused a value (file, value and errno inside)
   * @throws ReadBackMismatchException the kernel holds something other than expected
   * @throws CgroupUnsupportedException no cpu controller for this group
   */
  CpuApplyResult applyCpu(TaskId task, CgroupCpuWrite settings) throws IOException;

  FreezerState freezerState(TaskId task) throws IOException;

  /** Requests a freeze unless one is in force and waits until the kernel reports FROZEN. */
  FreezeResult freeze(TaskId task, Duration timeout) throws IOException, InterruptedException;

  /** Lifts this group's own freeze and waits until the kernel reports THAWED. */
  FreezeResult thaw(TaskId task, Duration timeout) throws IOException, InterruptedException;

  // ---- group lifecycle (demo and tests; a job system normally owns these) ----

  /** Creates the parent where missing (its own parent must exist); true if anything was made. */
  boolean createParent() throws IOException;

  /** Removes the parent from every hierarchy; EBUSY while task groups remain. */
  boolean removeParent() throws IOException;

  /** Creates the task's group in every hierarchy; true if anything was made. */
  boolean create(TaskId task) throws IOException;

  /** Removes the task's group from every hierarchy; EBUSY while it holds processes. */
  boolean remove(TaskId task) throws IOException;

  boolean exists(TaskId task) throws IOException;

  /** Moves a process into the task's group in every hierarchy. */
  void attach(TaskId task, long pid) throws IOException;
}
