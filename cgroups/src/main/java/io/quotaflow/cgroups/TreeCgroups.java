package io.quotaflow.cgroups;

import java.io.IOException;
import java.nio.file.Path;

/** What v1 and v2 do alike: the group tree under the parent (discover, create, remove, attach). */
abstract class TreeCgroups implements Cgroups {

  protected final GroupTree tree;

  TreeCgroups(GroupTree tree) {
    this.tree = tree;
  }

  @Override
  public Discovery discover() throws IOException {
    return tree.discover();
  }

  @Override
  public int childGroupCount() throws IOException {
    return tree.childGroupCount();
  }

  @Override
  public TaskId taskIdOf(Path groupDir) throws UnsafeCgroupPathException {
    return tree.taskIdOf(groupDir);
  }

  @Override
  public boolean createParent() throws IOException {
    return tree.createParent();
  }

  @Override
  public boolean removeParent() throws IOException {
    return tree.removeParent();
  }

  @Override
  public boolean create(TaskId task) throws IOException {
    return tree.create(task);
  }

  @Override
  public boolean remove(TaskId task) throws IOException {
    return tree.remove(task);
  }

  @Override
  public boolean exists(TaskId task) throws IOException {
    return tree.exists(task);
  }

  @Override
  public void attach(TaskId task, long pid) throws IOException {
    tree.attach(task, pid);
  }
}
