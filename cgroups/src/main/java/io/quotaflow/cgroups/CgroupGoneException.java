package io.quotaflow.cgroups;

import java.nio.file.Path;

/** The task group does not exist (any more): the collector's cue to publish a GONE sample. */
public class CgroupGoneException extends CgroupException {

  private final transient TaskId task;

  public CgroupGoneException(TaskId task, Path where) {
    super("cgroup of task " + task + " is gone: " + where);
    this.task = task;
  }

  public TaskId task() {
    return task;
  }
}
