package io.quotaflow.cgroups;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/** The cgroup v2 backend: one directory per task group in the unified tree. */
final class V2Cgroups extends TreeCgroups {

  private static final String FREEZE = "cgroup.freeze";
  private static final String EVENTS = "cgroup.events";

  private final Hierarchy h;
  private final V2CpuControl cpu;

  V2Cgroups(GroupTree tree, Hierarchy h) {
    super(tree);
    this.h = h;
    this.cpu = new V2CpuControl(tree, h);
  }

  @Override
  public CgroupVersion version() {
    return CgroupVersion.V2;
  }

  @Override
  public String describe() {
    return "cgroup v2 at " + h.root() + " (controllers " + h.controllers() + "), task groups under "
        + h.parent();
  }

  @Override
  public boolean cpuSettingsSupported() throws IOException {
    return cpu.supported();
  }

  @Override
  public boolean freezerSupported() {
    return true; // cgroup.freeze is a core file of every non-root v2 group
  }

  @Override
  public CgroupStatsReader openReader(TaskId task) throws IOException {
    return openReader(task, MemoryStatRefresh.EVERY_READ);
  }

  @Override
  public CgroupStatsReader openReader(TaskId task, MemoryStatRefresh refresh) throws IOException {
    return new V2StatsReader(task, tree, h, refresh);
  }

  @Override
  public CgroupCpuRead readCpu(TaskId task) throws IOException {
    return cpu.read(task);
  }

  @Override
  public CpuApplyResult applyCpu(TaskId task, CgroupCpuWrite settings) throws IOException {
    return cpu.apply(task, settings);
  }

  @Override
  public FreezerState freezerState(TaskId task) throws IOException {
    return state(tree.groupDir(h, task));
  }

  @Override
  public FreezeResult freeze(TaskId task, Duration timeout) throws IOException, InterruptedException {
    Path dir = tree.groupDir(h, task);
    boolean write = !requested(dir);
    if (write) {
      tree.write(dir, FREEZE, "1");
    }
    return FreezeWait.await(task, () -> state(dir), FreezerState.FROZEN, timeout, write);
  }

  @Override
  public FreezeResult thaw(TaskId task, Duration timeout) throws IOException, InterruptedException {
    Path dir = tree.groupDir(h, task);
    boolean write = requested(dir);
    if (write) {
      tree.write(dir, FREEZE, "0");
    }
    return FreezeWait.await(task, () -> state(dir), FreezerState.THAWED, timeout, write);
  }

  private static boolean requested(Path dir) throws IOException {
    return KernfsIo.readLong(dir.resolve(FREEZE)) == 1;
  }

  private static FreezerState state(Path dir) throws IOException {
    Long frozen = KernfsIo.keyed(dir.resolve(EVENTS), "frozen");
    return freezerState(requested(dir), frozen != null && frozen == 1);
  }

  /** {@code frozen 1} without our request means a frozen ancestor: frozen all the same. */
  static FreezerState freezerState(boolean requested, boolean frozen) {
    if (frozen) {
      return FreezerState.FROZEN;
    }
    return requested ? FreezerState.FREEZING : FreezerState.THAWED;
  }
}
