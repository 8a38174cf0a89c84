package io.quotaflow.process;

/**
 * A problem the user can fix (a file that cannot be read, a broker that cannot be reached): printed
 * as one line, without a stack trace, and the command exits 1 ({@link ProcessCommandLine}).
 */
public class ProcessException extends RuntimeException {

  public ProcessException(String message) {
    super(message);
  }

  public ProcessException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * The message with the root cause's, when it adds something: "cannot X (Y)". The root cause is
   * what an operator can act on (connection refused, unknown host); the outer message says where.
   */
  public static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = String.valueOf(e.getMessage());
    return root == e || root.getMessage() == null || message.contains(root.getMessage())
        ? message : message + " (" + root.getMessage() + ")";
  }
}
