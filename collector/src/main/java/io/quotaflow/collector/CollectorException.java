package io.quotaflow.collector;

/**
 * The collector cannot start or run for a reason the operator can fix (no cgroup root, broker or
 * registry unreachable). Its message is one line meant to be printed as it is, without a trace.
 */
public final class CollectorException extends RuntimeException {

  public CollectorException(String message) {
    super(message);
  }

  public CollectorException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The message with the root cause's, when they differ: "cannot X: Y (Z)". */
  static String describe(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = String.valueOf(e.getMessage());
    return root == e || root.getMessage() == null || message.contains(root.getMessage())
        ? message : message + " (" + root.getMessage() + ")";
  }
}
