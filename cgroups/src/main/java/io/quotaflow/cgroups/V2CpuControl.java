package io.quotaflow.cgroups;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * v2 {@code cpu.weight} and {@code cpu.max} of a task group. The files exist only when the
 * parent enables the cpu controller for its children ({@code cgroup.subtree_control}); without it
 * every operation is {@link CgroupUnsupportedException}, never a crash. Enabling it is left to
 * the operator: {@code cgroup.subtree_control} is not a file this module writes.
 */
final class V2CpuControl {

  static final String WEIGHT = "cpu.weight";
  static final String MAX = "cpu.max";

  private final GroupTree tree;
  private final Hierarchy h;

  V2CpuControl(GroupTree tree, Hierarchy h) {
    this.tree = tree;
    this.h = h;
  }

  boolean supported() throws IOException {
    return subtreeControl().contains("cpu");
  }

  private List<String> subtreeControl() throws IOException {
    String text = KernfsIo.readOrNull(h.parent().resolve("cgroup.subtree_control"));
    return text == null || text.isBlank() ? List.of() : Arrays.asList(text.split("\\s+"));
  }

  CgroupCpuRead read(TaskId task) throws IOException {
    return read(requireCpuFiles(tree.groupDir(h, task)));
  }

  private static CgroupCpuRead read(Path dir) throws IOException {
    long weight = KernfsIo.readLong(dir.resolve(WEIGHT));
    long[] max = parseMax(dir, KernfsIo.read(dir.resolve(MAX)));
    return new CgroupCpuRead(null, weight, max[0], max[1]);
  }

  /** {@code "max 100000"} or {@code "50000 100000"} as {quota (NO_QUOTA for max), period}. */
  static long[] parseMax(Path dir, String text) throws CgroupException {
    String[] parts = text.trim().split("\\s+");
    try {
      if (parts.length == 2) {
        long quota = parts[0].equals("max") ? KernelCpuLimits.NO_QUOTA : Long.parseLong(parts[0]);
        return new long[] {quota, Long.parseLong(parts[1])};
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new CgroupException("unexpected cpu.max \"" + text + "\" in " + dir);
  }

  static String formatMax(long quotaUs, long periodUs) {
    return (quotaUs == KernelCpuLimits.NO_QUOTA ? "max" : Long.toString(quotaUs)) + " " + periodUs;
  }

  CpuApplyResult apply(TaskId task, CgroupCpuWrite settings) throws IOException {
    Path dir = requireCpuFiles(tree.groupDir(h, task));
    CgroupCpuRead before = read(dir);
    List<FileWrite> writes = new ArrayList<>();
    // The kernel stores a weight as shares and reads it back rounded; within
    // [MIN_WEIGHT, MAX_WEIGHT] that round trip is exact, and outside it the write fails with ERANGE.
    if (before.weight() != settings.weight()) {
      String text = Long.toString(settings.weight());
      tree.write(dir, WEIGHT, text);
      writes.add(new FileWrite(WEIGHT, Long.toString(before.weight()), text));
    }
    if (before.quotaUs() != settings.quotaUs() || before.periodUs() != settings.periodUs()) {
      // One write sets both, so v1's ordering problem does not arise; the kernel caps a child at
      // its ancestors' limit without an error, so there is nothing to clamp either.
      String text = formatMax(settings.quotaUs(), settings.periodUs());
      tree.write(dir, MAX, text);
      writes.add(new FileWrite(MAX, formatMax(before.quotaUs(), before.periodUs()), text));
    }
    CgroupCpuRead after = read(dir);
    if (after.weight() != settings.weight()) {
      throw new ReadBackMismatchException(dir.resolve(WEIGHT), Long.toString(settings.weight()),
          Long.toString(after.weight()));
    }
    if (after.quotaUs() != settings.quotaUs() || after.periodUs() != settings.periodUs()) {
      throw new ReadBackMismatchException(dir.resolve(MAX),
          formatMax(settings.quotaUs(), settings.periodUs()),
          formatMax(after.quotaUs(), after.periodUs()));
    }
    return new CpuApplyResult(task, writes.isEmpty() ? WriteOutcome.UNCHANGED : WriteOutcome.APPLIED,
        settings, after, writes, Optional.empty());
  }

  private Path requireCpuFiles(Path dir) throws IOException {
    if (KernfsIo.readOrNull(dir.resolve(WEIGHT)) == null) {
      throw new CgroupUnsupportedException("cgroup v2 group " + dir + " has no cpu controller: "
          + h.parent() + "/cgroup.subtree_control enables " + subtreeControl()
          + " (tree offers " + h.controllers() + "); CPU settings are not supported here");
    }
    return dir;
  }
}
