package io.quotaflow.cgroups;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Collectors;

/** The cgroup v1 backend: one directory per task group in each of cpu, cpuacct, memory, freezer. */
final class V1Cgroups extends TreeCgroups {

  private static final String FREEZER_STATE = "freezer.state";

  private final Hierarchy cpu;
  private final Hierarchy cpuacct;
  private final Hierarchy memory;
  private final Hierarchy freezer;
  private final V1CpuControl cpuControl;

  V1Cgroups(GroupTree tree, Hierarchy cpu, Hierarchy cpuacct, Hierarchy memory, Hierarchy freezer) {
    super(tree);
    this.cpu = cpu;
    this.cpuacct = cpuacct;
    this.memory = memory;
    this.freezer = freezer;
    this.cpuControl = cpu == null ? null : new V1CpuControl(tree, cpu);
  }

  @Override
  public CgroupVersion version() {
    return CgroupVersion.V1;
  }

  @Override
  public String describe() {
    return "cgroup v1, task groups under " + tree.hierarchies().stream()
        .map(Hierarchy::toString).collect(Collectors.joining("; "));
  }

  @Override
  public boolean cpuSettingsSupported() {
    return cpu != null;
  }

  @Override
  public boolean freezerSupported() {
    return freezer != null;
  }

  @Override
  public CgroupStatsReader openReader(TaskId task) throws IOException {
    return openReader(task, MemoryStatRefresh.EVERY_READ);
  }

  @Override
  public CgroupStatsReader openReader(TaskId task, MemoryStatRefresh refresh) throws IOException {
    return new V1StatsReader(task, tree, cpu, cpuacct, memory, freezer, refresh);
  }

  @Override
  public CgroupCpuRead readCpu(TaskId task) throws IOException {
    return requireCpu().read(task);
  }

  @Override
  public CpuApplyResult applyCpu(TaskId task, CgroupCpuWrite settings) throws IOException {
    return requireCpu().apply(task, settings);
  }

  private V1CpuControl requireCpu() throws CgroupUnsupportedException {
    if (cpuControl == null) {
      throw new CgroupUnsupportedException("no cgroup v1 cpu hierarchy is mounted: CPU settings"
          + " cannot be written (" + describe() + ")");
    }
    return cpuControl;
  }

  @Override
  public FreezerState freezerState(TaskId task) throws IOException {
    return state(tree.groupDir(requireFreezer(), task));
  }

  @Override
  public FreezeResult freeze(TaskId task, Duration timeout) throws IOException, InterruptedException {
    Path dir = tree.groupDir(requireFreezer(), task);
    boolean write = !selfFreezing(dir);
    if (write) {
      tree.write(dir, FREEZER_STATE, "FROZEN");
    }
    return FreezeWait.await(task, () -> state(dir), FreezerState.FROZEN, timeout, write);
  }

  @Override
  public FreezeResult thaw(TaskId task, Duration timeout) throws IOException, InterruptedException {
    Path dir = tree.groupDir(requireFreezer(), task);
    boolean write = selfFreezing(dir);
    if (write) {
      tree.write(dir, FREEZER_STATE, "THAWED");
    }
    return FreezeWait.await(task, () -> state(dir), FreezerState.THAWED, timeout, write);
  }

  /**
   * Whether this group's own freeze is requested. freezer.state also reads FROZEN under a frozen
   * parent, which writing THAWED here would not change, so the self flag decides what to write.
   */
  private static boolean selfFreezing(Path dir) throws IOException {
    String self = KernfsIo.readOrNull(dir.resolve("freezer.self_freezing"));
    return self != null ? self.equals("1") : state(dir) != FreezerState.THAWED;
  }

  private static FreezerState state(Path dir) throws IOException {
    String text = KernfsIo.read(dir.resolve(FREEZER_STATE));
    try {
      return FreezerState.valueOf(text);
    } catch (IllegalArgumentException e) {
      throw new CgroupException("unexpected freezer.state \"" + text + "\" in " + dir);
    }
  }

  private Hierarchy requireFreezer() throws CgroupUnsupportedException {
    if (freezer == null) {
      throw new CgroupUnsupportedException("no cgroup v1 freezer hierarchy is mounted ("
          + describe() + ")");
    }
    return freezer;
  }
}
