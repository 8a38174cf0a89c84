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

  /** The message with the root cause's, when there is one: "cannot X (Y)". */
  public static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + root.getMessage() + ")";
  }
}
