package io.quotaflow.cgroups;

import java.util.List;

/**
 * The task groups found under the parent.
 *
 * @param tasks directories whose names are valid task ids, sorted
 * @param skipped entries that look like groups but were refused (unsafe names, symlinks), each
 *     with the reason, for the caller to log or count
 */
public record Discovery(List<TaskId> tasks, List<String> skipped) {

  public Discovery {
    tasks = List.copyOf(tasks);
    skipped = List.copyOf(skipped);
  }
}
