package io.quotaflow.process;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

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
    // A future's wrapper says nothing of its own: its message is the cause's class and message.
    Throwable top = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
    Throwable root = top;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = describe(top);
    return root == top || root.getMessage() == null || message.contains(root.getMessage())
        ? message : message + " (" + root.getMessage() + ")";
  }

  /** Its message, or what it is when it has none (a timed-out wait has none). */
  private static String describe(Throwable e) {
    if (e.getMessage() != null) {
      return e.getMessage();
    }
    return e instanceof TimeoutException ? "timed out" : e.getClass().getSimpleName();
  }
}
