package io.quotaflow.cli.demo;

import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.CgroupParent;
import io.quotaflow.cgroups.PlainFileTree;
import io.quotaflow.embedded.Directories;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A temporary directory laid out like cgroup v1 (cpu, cpuacct, memory and freezer mounted apart, as
 * on these machines; {@link PlainFileTree}'s layout), with the task groups under one parent: the
 * same collector and enforcer run on it unchanged, and {@link WorkloadSimulator} plays the kernel.
 * {@link #close()} deletes it.
 */
public final class SimulatedCgroupTree implements AutoCloseable {

  static final String PARENT = "quotaflow";
  /** What a simulated CPU task's memory files say; the stepping allocators' follow their schedules. */
  static final long MEMORY_BYTES = 48L << 20;

  private final PlainFileTree tree;

  private SimulatedCgroupTree(PlainFileTree tree) {
    this.tree = tree;
  }

  /** A new tree in a fresh temporary directory, with the parent in every hierarchy. */
  public static SimulatedCgroupTree create() throws IOException {
    // The real path: the cgroups module refuses groups reached through a symlink (/tmp may be one).
    return new SimulatedCgroupTree(PlainFileTree.v1(Directories.temporary("quotaflow-demo-cgroups"), PARENT));
  }

  public Path root() {
    return tree.root;
  }

  /** Where the collector and enforcer find this tree. */
  public CgroupConfig config() {
    return new CgroupConfig(tree.root, CgroupLayout.V1, CgroupParent.at(PARENT));
  }

  /** Creates a task group in every hierarchy, at kernel defaults but for {@link #MEMORY_BYTES} of memory in use. */
  public void addTask(String task) {
    tree.v1Task(PARENT, task);
    setMemory(task, MEMORY_BYTES, MEMORY_BYTES);
  }

  /**
   * The group's memory files as the kernel would show a process holding {@code anonBytes} of
   * anonymous memory and no page cache: usage, the highest usage so far, and {@code memory.stat}.
   */
  void setMemory(String task, long anonBytes, long maxBytes) {
    String memory = "memory/" + PARENT + "/" + task + "/";
    tree.file(memory + "memory.usage_in_bytes", anonBytes + "\n");
    tree.file(memory + "memory.max_usage_in_bytes", maxBytes + "\n");
    tree.file(memory + "memory.stat", "cache 0\nrss " + anonBytes + "\ntotal_cache 0\ntotal_rss " + anonBytes + "\n");
  }

  /** A value the enforcer may be rewriting at this moment: see {@link PlainFileTree#readValue}. */
  String read(String hierarchy, String task, String name) {
    return tree.readValue(relative(hierarchy, task, name));
  }

  /** Rewrites a file in place, as the kernel updates a counter (see {@link PlainFileTree#file}). */
  void update(String hierarchy, String task, String name, String content) {
    tree.file(relative(hierarchy, task, name), content);
  }

  private static String relative(String hierarchy, String task, String name) {
    return hierarchy + "/" + PARENT + "/" + task + "/" + name;
  }

  /** Deletes the whole tree. */
  @Override
  public void close() throws IOException {
    Directories.deleteRecursively(tree.root);
  }
}
