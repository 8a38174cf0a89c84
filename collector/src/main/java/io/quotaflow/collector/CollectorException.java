package io.quotaflow.collector;

import io.quotaflow.process.ProcessException;

/**
 * The collector cannot start or run for a reason the operator can fix (no cgroup root, broker or
 * registry unreachable). Its message is one line meant to be printed as it is, without a trace.
 */
public final class CollectorException extends ProcessException {

  public CollectorException(String message) {
    super(message);
  }

  public CollectorException(String message, Throwable cause) {
    super(message, cause);
  }
}
