package io.quotaflow.cgroups;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * The task groups under the parent in every hierarchy, and the one place that enforces DESIGN
 * "Safety" for them: ids are single safe components, a group is a direct child of the parent,
 * no symlink is followed, and only allowlisted file names are written.
 *
 * <p>Symlinks are refused rather than resolved: cgroupfs cannot contain them, so one found under
 * the parent means a misconfigured root or tampering. The check-then-open window is closed for
 * the last component by opening with {@code O_NOFOLLOW}, and for the directories by comparing
 * real paths.
 */
final class GroupTree {

  /** Every file name this module ever writes. */
  static final Set<String> WRITABLE_FILES = Set.of(
      "cpu.shares", "cpu.cfs_period_us", "cpu.cfs_quota_us",
      "cpu.weight", "cpu.max",
      "freezer.state", "cgroup.freeze",
      "cgroup.procs");

  private final List<Hierarchy> hierarchies;
  private final Hierarchy primary;

  /**
   * @param hierarchies distinct hierarchies, in the order a process is attached to them
   * @param primary the hierarchy whose directories define which task groups exist
   */
  GroupTree(List<Hierarchy> hierarchies, Hierarchy primary) {
    this.hierarchies = List.copyOf(hierarchies);
    this.primary = primary;
  }

  List<Hierarchy> hierarchies() {
    return hierarchies;
  }

  Hierarchy primary() {
    return primary;
  }

  boolean parentExists(Hierarchy h) throws IOException {
    if (!Files.exists(h.parent(), LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    checkParent(h);
    return true;
  }

  /** The parent must be a real directory reached through no symlink. */
  void checkParent(Hierarchy h) throws IOException {
    Path parent = h.parent();
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(parent, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      throw new CgroupException("the task groups' parent " + parent + " does not exist");
    }
    if (!attributes.isDirectory() || !parent.toRealPath().equals(parent)) {
      throw new UnsafeCgroupPathException("the task groups' parent " + parent
          + " is not a directory reached without symlinks (real path " + parent.toRealPath() + ")");
    }
  }

  /** The task's group directory in {@code h}, checked; {@link CgroupGoneException} if absent. */
  Path groupDir(Hierarchy h, TaskId task) throws IOException {
    Path dir = groupDirIfPresent(h, task);
    if (dir == null) {
      throw new CgroupGoneException(task, h.parent().resolve(task.value()));
    }
    return dir;
  }

  /** The task's group directory in {@code h}, checked, or null when it does not exist. */
  Path groupDirIfPresent(Hierarchy h, TaskId task) throws IOException {
    checkParent(h);
    Path dir = h.parent().resolve(task.value());
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
    if (attributes.isSymbolicLink()) {
      throw new UnsafeCgroupPathException(dir + " is a symbolic link; refusing to follow it");
    }
    if (!attributes.isDirectory()) {
      throw new UnsafeCgroupPathException(dir + " is not a directory");
    }
    if (!dir.toRealPath().equals(dir)) {
      throw new UnsafeCgroupPathException(dir + " resolves elsewhere: " + dir.toRealPath());
    }
    return dir;
  }

  /**
   * Writes an allowlisted file of a task group. Every write passes here, so the directory is
   * checked again (direct child, no symlink) whatever the caller checked before.
   */
  void write(Path groupDir, String fileName, String value) throws IOException {
    if (!WRITABLE_FILES.contains(fileName)) {
      throw new UnsafeCgroupPathException("refusing to write " + Printable.of(fileName)
          + ": not in the allowlist " + WRITABLE_FILES);
    }
    for (Hierarchy h : hierarchies) {
      if (h.parent().equals(groupDir.getParent())) {
        KernfsIo.write(groupDir(h, taskIdOf(groupDir)).resolve(fileName), value);
        return;
      }
    }
    throw notADirectChild(groupDir);
  }

  /** The task a path names, if it is a direct child of the parent of some hierarchy. */
  TaskId taskIdOf(Path groupDir) throws UnsafeCgroupPathException {
    Path absolute = groupDir.toAbsolutePath();
    Path name = absolute.getFileName();
    for (Hierarchy h : hierarchies) {
      if (h.parent().equals(absolute.getParent()) && name != null && TaskId.isValid(name.toString())) {
        return new TaskId(name.toString());
      }
    }
    throw notADirectChild(groupDir);
  }

  private UnsafeCgroupPathException notADirectChild(Path groupDir) {
    return new UnsafeCgroupPathException(groupDir + " is not a direct child of the task groups'"
        + " parent " + hierarchies.stream().map(h -> h.parent().toString()).toList());
  }

  /** Valid task groups under the primary hierarchy's parent; none when the parent is absent. */
  Discovery discover() throws IOException {
    if (!parentExists(primary)) {
      return new Discovery(List.of(), List.of());
    }
    List<TaskId> tasks = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(primary.parent())) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        BasicFileAttributes attributes;
        try {
          attributes = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
          continue; // removed while listing
        }
        if (attributes.isSymbolicLink()) {
          skipped.add(Printable.of(name) + ": symbolic link");
        } else if (!attributes.isDirectory()) {
          continue; // the parent's own control files
        } else if (!TaskId.isValid(name)) {
          skipped.add(Printable.of(name) + ": not a valid task id");
        } else {
          tasks.add(new TaskId(name));
        }
      }
    }
    Collections.sort(tasks);
    return new Discovery(tasks, skipped);
  }

  /**
   * Subdirectories of the primary parent as its link count says (kernfs: 2 + subdirectories);
   * -1 when the parent is absent or the file system reports no such count.
   */
  int childGroupCount() throws IOException {
    try {
      Object links = Files.getAttribute(primary.parent(), "unix:nlink", LinkOption.NOFOLLOW_LINKS);
      int count = ((Number) links).intValue();
      return count >= 2 ? count - 2 : -1;
    } catch (NoSuchFileException e) {
      return -1;
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      return -1; // no "unix" attribute view on this platform
    }
  }

  /** Creates the parent (last component only) in every hierarchy where it is missing. */
  boolean createParent() throws IOException {
    boolean created = false;
    for (Hierarchy h : hierarchies) {
      if (parentExists(h)) {
        continue;
      }
      Path above = h.parent().getParent();
      if (!Files.isDirectory(above, LinkOption.NOFOLLOW_LINKS) || !above.toRealPath().equals(above)) {
        throw new CgroupException("cannot create " + h.parent() + ": " + above
            + " is not an existing directory reached without symlinks");
      }
      created |= mkdir(h.parent());
    }
    return created;
  }

  /** Removes the parent in every hierarchy; fails with EBUSY while task groups remain. */
  boolean removeParent() throws IOException {
    boolean removed = false;
    for (Hierarchy h : reversed()) {
      if (parentExists(h)) {
        removed |= rmdir(h.parent());
      }
    }
    return removed;
  }

  /** Creates the task's group in every hierarchy; true if any directory was created. */
  boolean create(TaskId task) throws IOException {
    boolean created = false;
    for (Hierarchy h : hierarchies) {
      checkParent(h);
      if (groupDirIfPresent(h, task) == null) {
        created |= mkdir(h.parent().resolve(task.value()));
        groupDir(h, task);
      }
    }
    return created;
  }

  /** Removes the task's group wherever it exists; true if any directory was removed. */
  boolean remove(TaskId task) throws IOException {
    boolean removed = false;
    for (Hierarchy h : reversed()) {
      Path dir = groupDirIfPresent(h, task);
      if (dir != null) {
        removed |= rmdir(dir);
      }
    }
    return removed;
  }

  boolean exists(TaskId task) throws IOException {
    return groupDirIfPresent(primary, task) != null;
  }

  /** Moves a process into the task's group in every hierarchy (v1 cpu and cpuacct are separate). */
  void attach(TaskId task, long pid) throws IOException {
    if (pid <= 0) {
      throw new IllegalArgumentException("not a pid: " + pid);
    }
    for (Hierarchy h : hierarchies) {
      write(groupDir(h, task), "cgroup.procs", Long.toString(pid));
    }
  }

  private List<Hierarchy> reversed() {
    List<Hierarchy> out = new ArrayList<>(hierarchies);
    Collections.reverse(out);
    return out;
  }

  private static boolean mkdir(Path dir) throws IOException {
    try {
      Files.createDirectory(dir);
      return true;
    } catch (FileAlreadyExistsException e) {
      return false; // a concurrent creator won; the caller checks what is there
    } catch (IOException e) {
      throw CgroupWriteException.directory("mkdir", dir, KernelError.of(e), KernelError.messageOf(e));
    }
  }

  private static boolean rmdir(Path dir) throws IOException {
    try {
      Files.delete(dir);
      return true;
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      throw CgroupWriteException.directory("rmdir", dir, KernelError.of(e), KernelError.messageOf(e));
    }
  }
}
