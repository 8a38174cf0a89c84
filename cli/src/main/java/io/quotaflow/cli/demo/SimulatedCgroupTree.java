package io.quotaflow.cli.demo;

import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.CgroupParent;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * A temporary directory laid out like cgroup v1 (cpu, cpuacct, memory and freezer mounted apart, as
 * on these machines), with the task groups under one parent: the same collector and enforcer run
 * on it unchanged, and {@link WorkloadSimulator} plays the kernel. {@link #close()} deletes it.
 */
public final class SimulatedCgroupTree implements AutoCloseable {

  static final String PARENT = "quotaflow";
  static final List<String> HIERARCHIES = List.of("cpu", "cpuacct", "memory", "freezer");
  /** What each simulated task's memory files say: the demo is about CPU. */
  static final long MEMORY_BYTES = 48L << 20;

  private final Path root;

  private SimulatedCgroupTree(Path root) {
    this.root = root;
  }

  /** A new tree in a fresh temporary directory, with the parent in every hierarchy. */
  public static SimulatedCgroupTree create() throws IOException {
    // The real path: the cgroups module refuses groups reached through a symlink (/tmp may be one).
    return at(TempDirs.create("quotaflow-demo-cgroups"));
  }

  /** Lays the tree out in {@code root}, an existing empty directory. */
  static SimulatedCgroupTree at(Path root) throws IOException {
    SimulatedCgroupTree tree = new SimulatedCgroupTree(root);
    for (String hierarchy : HIERARCHIES) {
      tree.write(hierarchy + "/cgroup.procs", "");
      Files.createDirectories(root.resolve(hierarchy).resolve(PARENT));
      tree.write(hierarchy + "/" + PARENT + "/cgroup.procs", "");
    }
    for (String group : List.of("cpu", "cpu/" + PARENT)) {
      tree.write(group + "/cpu.shares", "1024\n");
      tree.write(group + "/cpu.cfs_period_us", "100000\n");
      tree.write(group + "/cpu.cfs_quota_us", "-1\n");
    }
    return tree;
  }

  public Path root() {
    return root;
  }

  /** Where the collector and enforcer find this tree. */
  public CgroupConfig config() {
    return new CgroupConfig(root, CgroupLayout.V1, CgroupParent.at(PARENT));
  }

  /** Creates a task group in every hierarchy, with the files the collector reads and the enforcer writes at kernel defaults. */
  public void addTask(String task) throws IOException {
    String cpu = "cpu/" + PARENT + "/" + task + "/";
    write(cpu + "cgroup.procs", "");
    write(cpu + "cpu.shares", "1024\n");
    write(cpu + "cpu.cfs_period_us", "100000\n");
    write(cpu + "cpu.cfs_quota_us", "-1\n");
    write(cpu + "cpu.stat", "nr_periods 0\nnr_throttled 0\nthrottled_time 0\n");
    String cpuacct = "cpuacct/" + PARENT + "/" + task + "/";
    write(cpuacct + "cgroup.procs", "");
    write(cpuacct + "cpuacct.usage", "0\n");
    String memory = "memory/" + PARENT + "/" + task + "/";
    write(memory + "cgroup.procs", "");
    write(memory + "memory.usage_in_bytes", MEMORY_BYTES + "\n");
    write(memory + "memory.max_usage_in_bytes", MEMORY_BYTES + "\n");
    write(memory + "memory.stat", "cache 0\nrss " + MEMORY_BYTES + "\ntotal_cache 0\ntotal_rss " + MEMORY_BYTES + "\n");
    String freezer = "freezer/" + PARENT + "/" + task + "/";
    write(freezer + "cgroup.procs", "");
    write(freezer + "freezer.state", "THAWED\n");
  }

  /** A task group's file in one hierarchy. */
  Path file(String hierarchy, String task, String name) {
    return root.resolve(hierarchy).resolve(PARENT).resolve(task).resolve(name);
  }

  String read(String hierarchy, String task, String name) throws IOException {
    return Files.readString(file(hierarchy, task, name), StandardCharsets.US_ASCII).trim();
  }

  /**
   * Rewrites a file in place, as the kernel updates a counter: the same inode, so a reader holding
   * it open sees the new value, and no moment where it is empty (counters only grow longer).
   */
  void update(String hierarchy, String task, String name, String content) throws IOException {
    byte[] bytes = content.getBytes(StandardCharsets.US_ASCII);
    try (FileChannel channel = FileChannel.open(file(hierarchy, task, name), StandardOpenOption.WRITE)) {
      channel.write(ByteBuffer.wrap(bytes), 0);
      channel.truncate(bytes.length);
    }
  }

  private void write(String relative, String content) throws IOException {
    Path path = root.resolve(relative);
    Files.createDirectories(path.getParent());
    Files.writeString(path, content, StandardCharsets.US_ASCII);
  }

  /** Deletes the whole tree. */
  @Override
  public void close() throws IOException {
    TempDirs.deleteRecursively(root);
  }
}
