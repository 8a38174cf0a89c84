package io.quotaflow.schemas;

/**
 * The {@code node/task} key of every per-task topic and store. Both parts are valid {@link Ids}.
 * Keys are built here ({@link #keyOf}, {@link #nodePrefix}), never by hand.
 */
public record TaskKey(String node, String task) {

  private static final char SEPARATOR = '/';

  public TaskKey {
    Ids.requireValid("node", node);
    Ids.requireValid("task", task);
  }

  /** The key of {@code node}'s task {@code task}; throws {@link Ids.InvalidIdException} for an invalid id. */
  public static String keyOf(String node, String task) {
    return new TaskKey(node, task).toString();
  }

  /** What every key of {@code node}'s tasks starts with, for a prefix scan of a store keyed {@code node/task}. */
  public static String nodePrefix(String node) {
    return Ids.requireValid("node", node) + SEPARATOR;
  }

  /** Parses {@code node/task}; throws {@link IllegalArgumentException} naming what is wrong. */
  public static TaskKey parse(String key) {
    if (key == null) {
      throw new IllegalArgumentException("task key is missing (expected node/task)");
    }
    int slash = key.indexOf(SEPARATOR);
    if (slash < 0) {
      throw new IllegalArgumentException("task key '" + key + "' has no '/' (expected node/task)");
    }
    return new TaskKey(key.substring(0, slash), key.substring(slash + 1));
  }

  /** The node part of a {@code node/task} or {@code node} key: everything before the first '/'. */
  public static String nodeOf(String key) {
    int slash = key.indexOf(SEPARATOR);
    return slash < 0 ? key : key.substring(0, slash);
  }

  /**
   * The task part of a {@code node/task} key: everything after the first '/', unchecked, as {@link #nodeOf} is: for
   * keys read back from a store, which were checked when they came in.
   */
  public static String taskOf(String key) {
    int slash = key.indexOf(SEPARATOR);
    if (slash < 0) {
      throw new IllegalArgumentException("task key '" + key + "' has no '/' (expected node/task)");
    }
    return key.substring(slash + 1);
  }

  @Override
  public String toString() {
    return node + SEPARATOR + task;
  }
}
