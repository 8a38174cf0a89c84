package io.quotaflow.cgroups;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A directory laid out like cgroupfs in plain files, with every file at its kernel default: the
 * tests of formats and safety use it, and so does {@code quotaflow demo} where cgroups are not
 * writable. Plain files do not behave like kernfs (no normalisation, no errors, no ENODEV), so
 * kernel behaviour is tested on real cgroups.
 */
public final class PlainFileTree {

  /** Far longer than a writer takes between truncating a file and writing it. */
  private static final long VALUE_WAIT_NANOS = 1_000_000_000L;

  public final Path root;

  public PlainFileTree(Path root) {
    this.root = root;
  }

  /** v1 hierarchies cpu, cpuacct, memory, freezer, each with {@code parent} created. */
  public static PlainFileTree v1(Path root, String parent) {
    PlainFileTree tree = new PlainFileTree(root);
    for (String controller : HierarchyLocator.V1_CONTROLLERS) {
      tree.file(controller + "/cgroup.procs", "");
      tree.v1Group(controller, parent);
    }
    tree.file("cpu/" + parent + "/cpu.cfs_quota_us", "-1\n");
    tree.file("cpu/" + parent + "/cpu.cfs_period_us", "100000\n");
    tree.file("cpu/cpu.cfs_quota_us", "-1\n");
    tree.file("cpu/cpu.cfs_period_us", "100000\n");
    return tree;
  }

  /**
   * A hybrid v2 tree under {@code unified} offering {@code controllers}, with {@code parent}
   * enabling {@code subtree} for its children.
   */
  public static PlainFileTree v2(Path root, String parent, String controllers, String subtree) {
    PlainFileTree tree = new PlainFileTree(root);
    tree.file("unified/cgroup.controllers", controllers + "\n");
    tree.file("unified/cgroup.procs", "");
    tree.file("unified/" + parent + "/cgroup.subtree_control", subtree + "\n");
    return tree;
  }

  /** Creates a v1 group directory with the files the backend reads, at kernel defaults. */
  public PlainFileTree v1Group(String controller, String path) {
    switch (controller) {
      case "cpu" -> {
        file("cpu/" + path + "/cpu.shares", "1024\n");
        file("cpu/" + path + "/cpu.cfs_period_us", "100000\n");
        file("cpu/" + path + "/cpu.cfs_quota_us", "-1\n");
        file("cpu/" + path + "/cpu.stat",
            "nr_periods 0\nnr_throttled 0\nthrottled_time 0\nnr_bursts 0\nburst_time 0\n");
      }
      case "cpuacct" -> file("cpuacct/" + path + "/cpuacct.usage", "0\n");
      case "memory" -> {
        file("memory/" + path + "/memory.usage_in_bytes", "0\n");
        file("memory/" + path + "/memory.max_usage_in_bytes", "0\n");
        file("memory/" + path + "/memory.stat", "cache 0\nrss 0\nrss_huge 0\ntotal_cache 0\ntotal_rss 0\n");
      }
      case "freezer" -> file("freezer/" + path + "/freezer.state", "THAWED\n");
      default -> throw new IllegalArgumentException(controller);
    }
    return this;
  }

  public PlainFileTree v1Task(String parent, String task) {
    for (String controller : HierarchyLocator.V1_CONTROLLERS) {
      v1Group(controller, parent + "/" + task);
    }
    return this;
  }

  /** A v2 group; cpu and memory files only when the parent enables those controllers. */
  public PlainFileTree v2Task(String parent, String task, boolean cpu, boolean memory) {
    String dir = "unified/" + parent + "/" + task + "/";
    file(dir + "cgroup.procs", "");
    file(dir + "cgroup.freeze", "0\n");
    file(dir + "cgroup.events", "populated 0\nfrozen 0\n");
    file(dir + "cpu.stat", "usage_usec 0\nuser_usec 0\nsystem_usec 0\n"
        + (cpu ? "nr_periods 0\nnr_throttled 0\nthrottled_usec 0\n" : ""));
    if (cpu) {
      file(dir + "cpu.weight", "100\n");
      file(dir + "cpu.max", "max 100000\n");
    }
    if (memory) {
      file(dir + "memory.current", "0\n");
      file(dir + "memory.stat", "anon 0\nfile 0\n");
    }
    return this;
  }

  /**
   * Writes in place, as the kernel updates a file: the same inode, and never empty in between
   * (written first, then cut to length), so a reader polling it sees the old value or the new one.
   */
  public PlainFileTree file(String relative, String content) {
    try {
      Path path = root.resolve(relative);
      Files.createDirectories(path.getParent());
      byte[] bytes = content.getBytes(StandardCharsets.US_ASCII);
      try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
        channel.write(ByteBuffer.wrap(bytes), 0);
        channel.truncate(bytes.length);
      }
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public String read(String relative) {
    try {
      return Files.readString(root.resolve(relative), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A value file's content, trimmed, as a kernfs reader would see it. The module writes a value as
   * kernfs takes it: opened with truncation, then written. Kernfs swaps the value whole; a plain
   * file is empty for a moment and can be read half-written. So a value counts once two reads in a
   * row agree and are not empty. A value file that stays empty is an error.
   */
  public String readValue(String relative) {
    long deadline = System.nanoTime() + VALUE_WAIT_NANOS;
    String previous = null;
    while (true) {
      String text = read(relative).trim();
      if (!text.isEmpty() && text.equals(previous)) {
        return text;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(relative + " gives no steady value: empty or rewritten all the time");
      }
      previous = text;
    }
  }

  public Path path(String relative) {
    return root.resolve(relative);
  }

  public Cgroups open(CgroupLayout layout, String parent) throws IOException {
    return Cgroups.open(new CgroupConfig(root, layout, CgroupParent.at(parent)));
  }
}
