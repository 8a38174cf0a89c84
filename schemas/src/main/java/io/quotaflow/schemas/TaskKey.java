package io.quotaflow.schemas;

/** The {@code node/task} key of every per-task topic. Both parts are valid {@link Ids}. */
public record TaskKey(String node, String task) {

  public TaskKey {
    Ids.requireValid("node", node);
    Ids.requireValid("task", task);
  }

  /** Parses {@code node/task}; throws {@link IllegalArgumentException} naming what is wrong. */
  public static TaskKey parse(String key) {
    if (key == null) {
      throw new IllegalArgumentException("task key is missing (expected node/task)");
    }
    int slash = key.indexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException("task key '" + key + "' has no '/' (expected node/task)");
    }
    return new TaskKey(key.substring(0, slash), key.substring(slash + 1));
  }

  /** The node part of a {@code node/task} or {@code node} key: everything before the first '/'. */
  public static String nodeOf(String key) {
    int slash = key.indexOf('/');
    return slash < 0 ? key : key.substring(0, slash);
  }

  @Override
  public String toString() {
    return node + "/" + task;
  }
}
