package io.quotaflow.process;

/**
 * A flag's value that parses but cannot be used (a duration that is not one, an unsafe node id):
 * printed as one line, and the command exits 2, as picocli does for a flag it cannot parse.
 */
public class UsageException extends ProcessException {

  public UsageException(String message) {
    super(message);
  }

  public UsageException(String message, Throwable cause) {
    super(message, cause);
  }
}
