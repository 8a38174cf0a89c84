package io.quotaflow.enforcer;

import io.quotaflow.cgroups.Printable;
import io.quotaflow.cgroups.TaskId;

/**
 * Whether a decision record is this node's and names a task group it may touch. The key decides
 * (it is what the topic is compacted and partitioned by); a value naming another node or task is
 * refused rather than guessed at.
 */
public sealed interface Admission {

  /** The node's own decision for a task whose id is safe to resolve under the parent. */
  record Mine(TaskId task) implements Admission {}

  /** Another node's record that hashes to this node's partition: not ours to act on or answer. */
  record OtherNode(String node) implements Admission {}

  /** Ours but refused (REJECTED): an id that is not a single safe path component, or a key/value mismatch. */
  record Refused(String rawTask, Why why, String detail) implements Admission {}

  /** Why a decision was refused: the {@code reason} of {@code quotaflow_enforcer_refused_total}. */
  enum Why {
    UNSAFE_TASK_ID, KEY_VALUE_MISMATCH;

    String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** A record without a key or without a node part; it cannot be this node's. */
  record Unkeyed(String detail) implements Admission {}

  /**
   * @param key the record key, {@code node/task}
   * @param valueNode the value's {@code node}, null for a tombstone
   * @param valueTask the value's {@code task}, null for a tombstone
   */
  static Admission of(String node, String key, String valueNode, String valueTask) {
    if (key == null) {
      return new Unkeyed("record without a key");
    }
    int slash = key.indexOf('/');
    if (slash < 0) {
      return new Unkeyed("key " + Printable.of(key) + " has no '/' (expected node/task)");
    }
    String keyNode = key.substring(0, slash);
    if (!keyNode.equals(node)) {
      return new OtherNode(keyNode);
    }
    String rawTask = key.substring(slash + 1);
    if (!TaskId.isValid(rawTask)) {
      return new Refused(rawTask, Why.UNSAFE_TASK_ID, "task id " + Printable.of(rawTask) + " is not a single safe path component"
          + " (ids match " + TaskId.PATTERN.pattern() + "): refusing to resolve it under the parent");
    }
    if (valueNode != null && (!valueNode.equals(node) || !rawTask.equals(valueTask))) {
      return new Refused(rawTask, Why.KEY_VALUE_MISMATCH, "key " + Printable.of(key) + " but the value names "
          + Printable.of(valueNode + "/" + valueTask) + ": refusing an ambiguous decision");
    }
    return new Mine(TaskId.of(rawTask));
  }
}
